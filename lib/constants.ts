// Magic strings shared by both halves of the app live here.

export const ID_PREFIX = {
  connect: 'test_',
  webhook: 'ep_',
  message: 'msg_',
  event: 'evt_',
  attempt: 'atmpt_',
  recoverRun: 'rcvr_',
  /** A console run that re-sends delivered messages whose arrival at its receiver failed (lib/console/recover). */
  resendRun: 'rsnd_',
  apiKey: 'sk_test_',
  webhookSecret: 'whsec_',
  /** A Connect-flow session: one visit of a donor to /connect/{cid}, or one API call creating a grant. */
  workflowSession: 'wfs_',
} as const;

/**
 * The operational events (EXT): the service's own news about a webhook, subscribable like any event.
 * An event about a webhook is never delivered to that webhook (lib/service/events/emit-operational-event.ts).
 */
export const OPERATIONAL_EVENT_TYPES = ['webhook.failing', 'webhook.disabled', 'message.attempt.exhausted', 'webhook.recovered'] as const;
export type TOperationalEventType = (typeof OPERATIONAL_EVENT_TYPES)[number];
export const EVENT_TYPES = ['grant.succeeded', ...OPERATIONAL_EVENT_TYPES] as const;
export type TEventType = (typeof EVENT_TYPES)[number];
export const isOperationalEventType = (t: string): t is TOperationalEventType => (OPERATIONAL_EVENT_TYPES as readonly string[]).includes(t);
/** The one tag of a test event's message (POST /v1/webhooks/{id}/test), so it can be told apart or found. */
export const TEST_EVENT_TAG = 'test';

export const SCOPES = ['create:nonprofits', 'read:nonprofits', 'create:connects', 'read:connects', 'create:grants', 'read:grants'] as const;
export type TScope = (typeof SCOPES)[number];

export const TOKEN_LIFETIME_SECONDS = 86400;
export const AUTH_REALM = 'giving-connect';
export const MAX_BODY_BYTES = 256 * 1024;
export const MAX_RESPONSE_BODY_BYTES = 20000;
/** The User-Agent of every delivery (the console's "Copy as cURL" of an attempt sends the same). */
export const DELIVERY_USER_AGENT = 'GivingConnect-Webhooks/1.0';
export const RECEIPT_MAX_BODY_BYTES = 1024 * 1024;

export const MESSAGE_STATUSES = ['pending', 'sending', 'success', 'failed'] as const;
/** EXT: why a delivery's retries stopped before its schedule ran out (its `retriesStopped.reason`). */
export const STOP_REASONS = ['donor_erased', 'payload_purged'] as const;
export type TMessageStatus = (typeof MESSAGE_STATUSES)[number];
export const ATTEMPT_STATUSES = ['success', 'failed'] as const;
export const TRIGGER_TYPES = ['scheduled', 'manual'] as const;
export const GRANT_STATUSES = ['Initiated', 'Completed', 'Canceled'] as const;

export const SIGNATURE_VERDICTS = ['valid', 'invalid signature', 'timestamp outside tolerance', 'missing headers', 'no secret configured'] as const;
export type TSignatureVerdict = (typeof SIGNATURE_VERDICTS)[number];
