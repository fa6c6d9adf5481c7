import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, sameShape } from '@/lib/openapi/shared-schemas';
import type { TRecoverRunJson } from './recover-run-json';
import { ZRecoverWindowFields } from './recover-window';
import { replayOperations } from './replay-openapi';
import type { TRetryPendingPreview, TRetryPendingResult } from './retry-pending';

// The document's recover, retry-now and replay-missing routes under /v1/webhooks/{id} (EXT): a
// recover run is one RecoverRun, whichever kind; lib/service/webhooks/openapi.ts places them among
// the webhook's operations.

const ID = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]{27}$`));
const ZWebhookPath = z.object({ id: z.string().meta({ description: 'The webhook id (`ep_…`).' }) });

const ZRecoverRun = z
  .object({
    id: ID('rcvr_'),
    kind: z
      .enum(['recover', 'replay-missing'])
      .meta({ description: 'recover: failed messages re-sent; replay-missing: messages the webhook never got, sent.' }),
    webhookId: ID('ep_'),
    since: ZInstantOut,
    until: ZInstantOut.meta({ description: 'The end asked for, or the time the run started.' }),
    status: z.enum(['running', 'done']),
    messages: z.int().meta({ description: 'How many messages the run queued (failed ones re-queued, or missing ones).', example: 12 }),
    remaining: z.int().meta({ description: 'Still to be re-sent.' }),
    succeeded: z.int().meta({ description: 'Re-sent and answered 2xx.' }),
    failed: z.int().meta({ description: 'Re-sent and failed again.' }),
    createdAt: ZInstantOut,
    finishedAt: ZInstantOut.nullable(),
    clientId: z.string().nullable().meta({ description: 'EXT: the API client whose token started the run; null for runs started before it was recorded.' }),
  })
  .meta({ id: 'RecoverRun' });
sameShape<TRecoverRunJson, z.output<typeof ZRecoverRun>>(true);
const ZRecoverPreview = z.object({ messages: z.int(), since: ZInstantOut, until: ZInstantOut }).meta({ id: 'RecoverPreview' });
const RECOVER_DESCRIPTION =
  'Re-sends once each (a `manual` attempt, outside the retry schedule) every message of the window whose delivery to this webhook ended `failed` and whose payload is still there (one a donor erasure or retention took has nothing to re-send). An identical request while the run still has messages to send answers the same run. A disabled webhook → 409.';

/** The window of a recover or a retry now (one component, both bodies). */
const ZRecoverWindowBody = ZRecoverWindowFields.meta({ id: 'RecoverWindow' });
const ZRetryPendingPreview = z
  .object({
    messages: z.int().meta({ description: 'Messages of the window waiting for a retry to this webhook.', example: 4 }),
    since: ZInstantOut,
    until: ZInstantOut.meta({ description: 'The end asked for, or now.' }),
  })
  .meta({ id: 'RetryPendingPreview' });
sameShape<TRetryPendingPreview, z.output<typeof ZRetryPendingPreview>>(true);
const ZRetryPendingResult = ZRetryPendingPreview.extend({
  messages: z.int().meta({ description: 'How many were made due now.', example: 4 }),
  dueAt: ZInstantOut.meta({ description: 'When they were made due: each is attempted from then on.' }),
}).meta({ id: 'RetryPendingResult' });
sameShape<TRetryPendingResult, z.output<typeof ZRetryPendingResult>>(true);
const RETRY_PENDING_DESCRIPTION =
  "Attempts now every message of the window (by creation time) whose delivery to this webhook failed at least once and waits for its next scheduled retry. Each attempt is the next step of the message's retry schedule: a success delivers it; a failure counts as that attempt and the schedule resumes from there (the next retry after its delay, or `failed` when none is left). A recover run's pending re-sends and first attempts are not included. A disabled webhook → 409.";

/** The recover, retry-now and replay-missing operations, in the document's order. */
export const RECOVER_OPERATIONS = [
  op('POST /v1/webhooks/{id}/recover', {
    id: 'recoverMessages',
    idempotent: true,
    tag: 'Messages',
    summary: "Re-send the window's failed messages",
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    body: ZRecoverWindowBody,
    status: 202,
    response: ZRecoverRun,
    errors: [409],
    responseHeaders: z.object({ location: z.string().meta({ description: '/v1/webhooks/{id}/recover/{runId}' }) }),
    description: RECOVER_DESCRIPTION,
  }),
  op('GET /v1/webhooks/{id}/recover', {
    id: 'previewRecover',
    tag: 'Messages',
    summary: 'How many failed messages a recover of the window would re-send',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    query: ZRecoverWindowFields,
    response: ZRecoverPreview,
  }),
  op('GET /v1/webhooks/{id}/recover/{runId}', {
    id: 'getRecoverRun',
    tag: 'Messages',
    summary: 'A recover run and its progress',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath.extend({ runId: z.string().meta({ description: 'The run id (`rcvr_…`).' }) }),
    response: ZRecoverRun,
  }),
  op('POST /v1/webhooks/{id}/retry-pending', {
    id: 'retryPendingNow',
    tag: 'Messages',
    summary: "Attempt now the window's messages waiting for a retry",
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    body: ZRecoverWindowBody,
    status: 202,
    response: ZRetryPendingResult,
    errors: [409],
    description: RETRY_PENDING_DESCRIPTION,
  }),
  op('GET /v1/webhooks/{id}/retry-pending', {
    id: 'previewRetryPending',
    tag: 'Messages',
    summary: 'How many messages of the window wait for a retry',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    query: ZRecoverWindowFields,
    response: ZRetryPendingPreview,
  }),
  ...replayOperations(ZRecoverRun, ZRecoverWindowBody),
];
