import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut } from '@/lib/openapi/shared-schemas';
import { ZRecoverWindowFields } from './recover-window';

// The document's replay-missing routes, for "know before the donor does" (EXT): their run is the
// RecoverRun of ./recover-openapi.ts, `kind: "replay-missing"`. `webhook.failing`'s data
// is lib/service/events/openapi.ts's.

const ZWebhookPath = z.object({ id: z.string().meta({ description: 'The webhook id (`ep_…`).' }) });
const ZReplayPreview = z
  .object({
    messages: z.int().meta({ description: 'How many messages a replay of the window would send now.', example: 37 }),
    since: ZInstantOut,
    until: ZInstantOut.meta({ description: 'The end asked for, or now.' }),
  })
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
      id: 'replayMissing',
      idempotent: true,
      tag: 'Messages',
      summary: 'Send the messages of the window the webhook never got',
      ext: true,
      auth: 'bearer',
      path: ZWebhookPath,
      body: window,
      status: 202,
      response: run,
      errors: [409],
      responseHeaders: z.object({ location: z.string().meta({ description: '/v1/webhooks/{id}/replay-missing/{runId}' }) }),
      description: REPLAY_DESCRIPTION,
    }),
    op('GET /v1/webhooks/{id}/replay-missing', {
      id: 'previewReplayMissing',
      tag: 'Messages',
      summary: 'How many messages of the window the webhook never got',
      ext: true,
      auth: 'bearer',
      path: ZWebhookPath,
      query: ZRecoverWindowFields,
      response: ZReplayPreview,
    }),
    op('GET /v1/webhooks/{id}/replay-missing/{runId}', {
      id: 'getReplayMissingRun',
      tag: 'Messages',
      summary: 'A replay-missing run and its progress',
      ext: true,
      auth: 'bearer',
      path: ZWebhookPath.extend({ runId: z.string().meta({ description: 'The run id (`rcvr_…`).' }) }),
      response: run,
    }),
  ];
}
