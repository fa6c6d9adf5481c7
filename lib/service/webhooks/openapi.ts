import { z } from 'zod';
import { ATTEMPT_STATUSES, EVENT_TYPES, MESSAGE_STATUSES, STOP_REASONS, TRIGGER_TYPES } from '@/lib/constants';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, ZMetadataOut, page, sameShape } from '@/lib/openapi/shared-schemas';
import { ZCreateWebhook, ZMessageFilters, ZTestEvent, ZUpdateWebhook } from './schemas';
import type { TAttemptJson, TMessageJson, TWebhookJson } from './webhook-json';
import { RECOVER_OPERATIONS } from '@/lib/service/recover/recover-openapi';
import { STREAM_PAGE, ZStreamFilters, type TStreamedMessageJson } from '@/lib/service/messages/stream-messages';

// The operations under /v1/webhooks of /openapi.json (one op(...) per route, beside its schemas):
// webhooks, their messages and attempts, recover and retry. The events the service sends (the
// document's `webhooks`) are lib/service/events/openapi.ts.

const ID = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]{27}$`));

export const ZWebhook = z
  .object({
    id: ID('ep_'),
    url: z.string().meta({ example: 'https://receiver.example.org/webhooks' }),
    eventTypes: z.array(z.enum(EVENT_TYPES)),
    description: z.string(),
    disabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: 'EXT: why the webhook was disabled; null while enabled.' }),
    disabledAt: ZInstantOut.nullable().meta({ description: 'EXT: when it was disabled; null while enabled.' }),
    failingSince: ZInstantOut.nullable().meta({
      description:
        'EXT: start of the current failing stretch (failures with no success since); kept while disabled (the stretch that disabled it); null when not failing.',
    }),
    disablesAt: ZInstantOut.nullable().meta({
      description:
        'EXT: `failingSince` + DELIVERY_DISABLE_AFTER_MS: when the webhook is disabled unless a delivery succeeds first — at that time, whether or not an attempt is due (the failing sweep, within 1/200 of the threshold). Null when not failing, disabled, or paused.',
    }),
    paused: z.boolean().optional().meta({
      description:
        "EXT: paused (PATCH `paused`): its messages queue and none is sent until it is resumed; its failing stretch's clock stands still, so a pause never disables it. Always sent here; a service without pause leaves it out.",
    }),
    pausedAt: ZInstantOut.nullable().meta({ description: 'EXT: when it was paused; null when not paused.' }),
    rateLimit: z
      .int()
      .nullable()
      .meta({ description: 'EXT: at most this many deliveries a second, across every worker (the rest wait, oldest first); null: no cap.', example: 20 }),
    metadata: ZMetadataOut,
    createdAt: ZInstantOut,
    updatedAt: ZInstantOut,
  })
  .meta({ id: 'Webhook' });
sameShape<TWebhookJson, z.output<typeof ZWebhook>>(true);

export const ZAttempt = z
  .object({
    id: ID('atmpt_'),
    url: z.string(),
    timestamp: ZInstantOut,
    status: z.enum(ATTEMPT_STATUSES),
    responseStatusCode: z.int().meta({ description: '0 when no response came (then `response` holds the error).', example: 200 }),
    responseDurationMs: z.int().meta({ example: 42 }),
    triggerType: z.enum(TRIGGER_TYPES),
  })
  .meta({ id: 'Attempt', description: 'A delivery attempt, without the response body.' });
sameShape<Omit<TAttemptJson, 'response' | 'responsePurged'>, z.output<typeof ZAttempt>>(true);

export const ZAttemptWithResponse = ZAttempt.extend({
  response: z.string().meta({ description: 'The response body (cut at 20,000 bytes), or the network error; empty once purged.' }),
  responsePurged: z
    .object({
      at: ZInstantOut,
      retention: z.string().meta({ description: "The account's payload retention as it is set now (`90d`; GET /v1/retention).", example: '90d' }),
      size: z.int().meta({ description: "The purged body's size in bytes." }),
      sha256: z.string().meta({ description: "The purged body's SHA-256, hex." }),
      reason: z.enum(['retention', 'erasure']).meta({
        description: "`retention`: MESSAGE_PAYLOAD_RETENTION (or the account's own) emptied it; `erasure`: a donor erasure (POST /v1/erasures) did, at `at`.",
      }),
    })
    .nullable()
    .meta({ description: 'EXT: when retention (MESSAGE_PAYLOAD_RETENTION) or a donor erasure emptied `response`, and which; null while it is kept.' }),
}).meta({ id: 'AttemptWithResponse' });

const ZEventPayloadOut = z.record(z.string(), z.unknown()).meta({
  description:
    'The event exactly as delivered: `{type, timestamp, data}` (see `webhooks`). EXT: once retention purged it, its tombstone ' +
    '`{"purged": {at, retention, size, sha256}}`; once a donor erasure replaced it, `{"erased": {at, sha256}}`.',
});

export const ZRetriesStopped = z
  .object({
    reason: z
      .enum(STOP_REASONS)
      .meta({ description: '`donor_erased`: a donor erasure (POST /v1/erasures) replaced the payload it would send; `payload_purged`: retention purged it.' }),
    at: ZInstantOut.meta({ description: 'When its retries stopped.' }),
  })
  .nullable()
  .meta({
    id: 'RetriesStopped',
    description:
      'EXT: set when this delivery ended `failed` before its retry schedule ran out because its payload is gone, and why; null otherwise (a `failed` delivery without it used every attempt, or its webhook was disabled).',
  });

export const ZMessage = z
  .object({
    id: ID('msg_'),
    eventId: ID('evt_').meta({ description: 'EXT: the event id.' }),
    eventType: z.enum(EVENT_TYPES),
    timestamp: ZInstantOut,
    tags: z.array(z.string()).meta({ description: 'EXT: what the message is found by (GET /v1/messages?tag=).' }),
    status: z.enum(MESSAGE_STATUSES),
    nextAttempt: ZInstantOut.nullable(),
    attemptCount: z.int().meta({ example: 1 }),
    lastAttempt: ZAttempt.nullable().meta({ description: 'EXT: the newest attempt to this webhook; null before the first.' }),
    retriesStopped: ZRetriesStopped,
    recoverRunId: z.string().nullable().meta({
      description:
        'EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it.',
    }),
  })
  .meta({ id: 'Message', description: 'A message as one webhook sees it (no payload).' });
sameShape<Omit<TMessageJson, 'payload'>, z.output<typeof ZMessage>>(true);

export const ZMessageWithPayload = ZMessage.extend({ payload: ZEventPayloadOut }).meta({ id: 'MessageWithPayload' });
const ZListedMessage = ZMessage.extend({
  payload: ZEventPayloadOut.optional().meta({ description: 'EXT: only with `withContent=true`.' }),
  attempts: z
    .array(ZAttempt)
    .optional()
    .meta({ description: 'EXT: only with `withAttempts=true`: every attempt to this webhook, oldest first, without response bodies.' }),
}).meta({ id: 'ListedMessage' });

const ZStreamedMessage = ZMessage.extend({
  payload: ZEventPayloadOut,
  attempts: z.array(ZAttempt).meta({ description: 'Every attempt to this webhook, oldest first, without response bodies.' }),
  lastAttempt: ZAttemptWithResponse.nullable().meta({ description: 'The newest attempt with its response body; null before the first.' }),
}).meta({ id: 'StreamedMessage', description: 'One line of the message stream.' });
sameShape<Omit<TStreamedMessageJson, 'payload'>, Omit<z.output<typeof ZStreamedMessage>, 'payload'>>(true);

const ZWebhookPath = z.object({ id: z.string().meta({ description: 'The webhook id (`ep_…`).' }) });
const ZMessagePath = ZWebhookPath.extend({ messageId: z.string().meta({ description: 'The message id (`msg_…`).' }) });
const ZSecret = z.object({ key: z.string().regex(/^whsec_/) }).meta({ id: 'WebhookSecret' });
const LOCATION = z.object({ location: z.string().meta({ description: '/v1/webhooks/{id}' }) });

export const WEBHOOK_OPERATIONS = [
  op('POST /v1/webhooks', {
    id: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Subscribe an endpoint',
    auth: 'bearer',
    body: ZCreateWebhook.meta({ id: 'CreateWebhook' }),
    status: 201,
    response: ZWebhook,
    responseHeaders: LOCATION,
    description: '`secret` and `metadata` are extensions.',
  }),
  op('GET /v1/webhooks', {
    id: 'listWebhooks',
    tag: 'Webhooks',
    summary: "List the account's webhooks",
    ext: true,
    auth: 'bearer',
    paged: true,
    response: page(ZWebhook, 'WebhookPage'),
  }),
  op('GET /v1/webhooks/{id}', {
    id: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    response: ZWebhook,
  }),
  op('PATCH /v1/webhooks/{id}', {
    id: 'updateWebhook',
    idempotent: true,
    tag: 'Webhooks',
    summary: 'Change a webhook',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    body: ZUpdateWebhook.meta({ id: 'UpdateWebhook' }),
    response: ZWebhook,
    description: '`paused: true` holds its deliveries (they queue, none is sent); `paused: false` resumes it and sends the backlog, oldest first.',
  }),
  op('DELETE /v1/webhooks/{id}', {
    id: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    status: 204,
  }),
  op('GET /v1/webhooks/{id}/secret', {
    id: 'getWebhookSecret',
    tag: 'Webhooks',
    summary: 'Get the signing secret',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    response: ZSecret,
  }),
  op('POST /v1/webhooks/{id}/secret/rotate', {
    id: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    response: ZSecret,
    description: 'The old secret keeps signing beside the new one for 24 h.',
  }),
  op('POST /v1/webhooks/{id}/test', {
    id: 'sendTestEvent',
    tag: 'Webhooks',
    summary: 'Send a test event',
    auth: 'bearer',
    path: ZWebhookPath,
    body: ZTestEvent.meta({ id: 'TestEvent' }),
    bodyOptional: true,
    response: ZMessageWithPayload,
    errors: [409],
    description: 'A real message for this webhook alone, carrying the example payload. A disabled webhook → 409.',
  }),
  op('GET /v1/webhooks/{id}/messages', {
    id: 'listMessages',
    tag: 'Messages',
    summary: "List a webhook's messages",
    auth: 'bearer',
    path: ZWebhookPath,
    paged: true,
    query: ZMessageFilters,
    response: page(ZListedMessage, 'MessagePage'),
    description:
      'Filters `status`, `eventType`, `before`, `after`, `withContent` (each message with its payload) and `withAttempts` (each with all its attempts, in the same query for the page: what an export reads) are extensions.',
  }),
  op('GET /v1/webhooks/{id}/messages/stream', {
    id: 'streamMessages',
    tag: 'Messages',
    summary: "Stream a webhook's messages with their attempts (NDJSON)",
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath,
    query: ZStreamFilters,
    response: ZStreamedMessage,
    responseType: 'application/x-ndjson',
    description:
      'Every message of the webhook that the filters (`status`, `eventType`, `before`, `after`, as the list has them) keep, newest first, one JSON object a line: ' +
      'the message with its payload, every attempt (oldest first, without response bodies) and its newest attempt with its response body. ' +
      `Read from the store ${STREAM_PAGE} at a time, each page only when the reader has taken the one before, so a slow reader slows the reading and a ` +
      'large webhook costs no more memory than a page. The stream ends after the last line; a failure part-way cuts the connection (never a short body that looks whole).',
  }),
  op('GET /v1/webhooks/{id}/messages/{messageId}', {
    id: 'getMessage',
    tag: 'Messages',
    summary: 'Get a message with its payload',
    auth: 'bearer',
    path: ZMessagePath,
    response: ZMessageWithPayload,
  }),
  op('POST /v1/webhooks/{id}/messages/{messageId}/resend', {
    id: 'resendMessage',
    tag: 'Messages',
    summary: 'Resend a message now',
    ext: true,
    auth: 'bearer',
    path: ZMessagePath,
    status: 202,
    response: ZAttemptWithResponse,
    errors: [409],
  }),
  op('GET /v1/webhooks/{id}/messages/{messageId}/attempts', {
    id: 'listAttempts',
    tag: 'Messages',
    summary: "List a message's attempts",
    auth: 'bearer',
    path: ZMessagePath,
    paged: true,
    response: page(ZAttempt, 'AttemptPage'),
  }),
  op('GET /v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId}', {
    id: 'getAttempt',
    tag: 'Messages',
    summary: 'Get an attempt with its response',
    auth: 'bearer',
    path: ZMessagePath.extend({ attemptId: z.string().meta({ description: 'The attempt id (`atmpt_…`).' }) }),
    response: ZAttemptWithResponse,
  }),
  ...RECOVER_OPERATIONS,
  op('GET /v1/webhooks/{id}/attempts/{attemptId}', {
    id: 'getWebhookAttempt',
    tag: 'Messages',
    summary: 'Get an attempt by its id alone',
    ext: true,
    auth: 'bearer',
    path: ZWebhookPath.extend({ attemptId: z.string().meta({ description: 'The attempt id (`atmpt_…`).' }) }),
    response: ZAttemptWithResponse,
  }),
];
