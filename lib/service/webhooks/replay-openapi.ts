import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, sameShape } from '@/lib/openapi/shared-schemas';
import type { TWebhookFailingData } from './failing-event';
import { ZRecoverWindowFields } from './recover-window';

// The document's parts for "know before the donor does" (EXT): `webhook.failing`'s data and the
// replay-missing routes (their run is the RecoverRun of openapi.ts, `kind: "replay-missing"`).

const ID = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]{27}$`));

/** The `data` of `webhook.failing`. */
export const ZWebhookFailingData = z
  .strictObject({
    webhookId: ID('ep_').meta({ description: 'The failing webhook (never the one the event is delivered to).' }),
    url: z.string(),
    failingSince: ZInstantOut.meta({ description: 'Start of the failing stretch: its first failure, with no success since.' }),
    disablesAt: ZInstantOut.meta({ description: '`failingSince` + DELIVERY_DISABLE_AFTER_MS: when the webhook is disabled, whether or not an attempt is due then, unless one succeeds first.' }),
    thresholdPercent: z.union([z.literal(50), z.literal(75), z.literal(90)]).meta({ description: 'The share of the disable threshold the stretch has passed; each is sent once per stretch.' }),
    lastError: z.string().nullable().meta({ description: 'Its newest failure in one line (status and the start of the answer, or the network error), at most 500 characters.' }),
    waitingMessages: z.int().meta({ description: 'Its messages waiting for an attempt (pending, or being sent).', example: 41 }),
  })
  .meta({ id: 'WebhookFailingData' });
sameShape<Omit<TWebhookFailingData, 'thresholdPercent'>, Omit<z.output<typeof ZWebhookFailingData>, 'thresholdPercent'>>(true);

const ZWebhookPath = z.object({ id: z.string().meta({ description: 'The webhook id (`ep_…`).' }) });
const ZReplayPreview = z
  .object({ messages: z.int().meta({ description: 'How many messages a replay of the window would send now.', example: 37 }), since: ZInstantOut, until: ZInstantOut.meta({ description: 'The end asked for, or now.' }) })
  .meta({ id: 'ReplayMissingPreview' });
const REPLAY_DESCRIPTION =
  'Sends, once each (a `manual` attempt, outside the retry schedule), every message of the account made in the window (`since` ≤ creation < `until` or now) ' +
  'that this webhook never got: of an event type it subscribes to, made once it existed, with no delivery to it (it was disabled then), not a test event, ' +
  'not an operational event about this webhook, its payload still kept. Afterwards each has a delivery, so a second preview counts 0. ' +
  'An identical request while the run still has messages to send answers the same run. A disabled webhook → 409.';

/** The replay-missing routes; `run` and `window` are the document's RecoverRun and RecoverWindow. */
export function replayOperations(run: z.ZodType, window: z.ZodType) {
  return [
    op('POST /v1/webhooks/{id}/replay-missing', {
      id: 'replayMissing', idempotent: true, tag: 'Messages', summary: 'Send the messages of the window the webhook never got', ext: true, auth: 'bearer', path: ZWebhookPath,
      body: window, status: 202, response: run, errors: [409],
      responseHeaders: z.object({ location: z.string().meta({ description: '/v1/webhooks/{id}/replay-missing/{runId}' }) }), description: REPLAY_DESCRIPTION,
    }),
    op('GET /v1/webhooks/{id}/replay-missing', {
      id: 'previewReplayMissing', tag: 'Messages', summary: 'How many messages of the window the webhook never got', ext: true, auth: 'bearer', path: ZWebhookPath,
      query: ZRecoverWindowFields, response: ZReplayPreview,
    }),
    op('GET /v1/webhooks/{id}/replay-missing/{runId}', {
      id: 'getReplayMissingRun', tag: 'Messages', summary: 'A replay-missing run and its progress', ext: true, auth: 'bearer',
      path: ZWebhookPath.extend({ runId: z.string().meta({ description: 'The run id (`rcvr_…`).' }) }), response: run,
    }),
  ];
}
