import { z } from 'zod';

// The API's resources as the console reads them (the service's /openapi.json, docs/API.md). Timestamps stay ISO strings so they
// pass unchanged to client components. Unknown extra fields are dropped, not refused: a remote
// service may add some.

const ZTimestamp = z.string().min(1);
const ZMetadata = z.record(z.string(), z.unknown()).nullish().transform((v) => v ?? {});

export const ZNonprofit = z.object({
  id: z.string(),
  ein: z.string(),
  name: z.string(),
  /** The public SDK's fields; a service may not send them. */
  preferredName: z.string().nullish(),
  website: z.string().nullish(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TNonprofit = z.output<typeof ZNonprofit>;

/** EXT GET /v1/nonprofits: a nonprofit with the account's Connect for it (or null). */
export const ZListedNonprofit = ZNonprofit.extend({
  connect: z.object({ id: z.string(), name: z.string(), active: z.boolean(), createdAt: ZTimestamp }).nullable(),
});
export type TListedNonprofit = z.output<typeof ZListedNonprofit>;

export const ZConnect = z.object({
  id: z.string(),
  nonprofitId: z.string(),
  name: z.string(),
  active: z.boolean(),
  metadata: ZMetadata,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  apiKey: z.string().optional(),
});
export type TConnect = z.output<typeof ZConnect>;

export const ZGrant = z.object({
  id: z.string(),
  connectId: z.string(),
  nonprofitId: z.string(),
  trackingId: z.string(),
  /** The Connect-flow session that created the grant (the public SDK's field); a service may not send it. */
  workflowSessionId: z.string().optional(),
  amount: z.number(),
  feeAmount: z.number(),
  coveredFees: z.boolean(),
  status: z.string(),
  fundId: z.string(),
  fundName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullish(),
  note: z.string().nullish(),
  metadata: ZMetadata,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TGrant = z.output<typeof ZGrant>;

export const ZWebhook = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string().nullish().transform((v) => v ?? ''),
  disabled: z.boolean(),
  // EXT: why and when it was disabled; null while enabled, or when the service does not say.
  disabledReason: z.string().nullish().transform((v) => v ?? null),
  disabledAt: ZTimestamp.nullish().transform((v) => v ?? null),
  // EXT: its failing stretch and when it ends in a disable; null when not failing, or not said.
  failingSince: ZTimestamp.nullish().transform((v) => v ?? null),
  disablesAt: ZTimestamp.nullish().transform((v) => v ?? null),
  metadata: ZMetadata,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TWebhook = z.output<typeof ZWebhook>;

export const ZAttempt = z.object({
  id: z.string(),
  url: z.string(),
  timestamp: ZTimestamp,
  status: z.string(), // success | failed
  responseStatusCode: z.number().int(),
  responseDurationMs: z.number(),
  triggerType: z.string(), // scheduled | manual
  response: z.string().optional(),
  /** EXT, with `response`: set once retention (or a donor erasure) emptied the response body. */
  responsePurged: z
    .object({ at: z.string(), retention: z.string().optional(), size: z.number().optional(), sha256: z.string().optional(), reason: z.string().optional() })
    .nullish()
    .transform((v) => v ?? null)
    .optional(),
});
export type TAttempt = z.output<typeof ZAttempt>;

/** EXT: why a delivery ended failed with retries left (`donor_erased`, `payload_purged`), and when; absent when the service does not say. */
export const ZRetriesStopped = z.object({ reason: z.string(), at: ZTimestamp }).nullable().optional();
export type TRetriesStopped = NonNullable<z.output<typeof ZRetriesStopped>>;

export const ZMessage = z.object({
  id: z.string(),
  eventType: z.string(),
  timestamp: ZTimestamp,
  status: z.string(), // pending | sending | success | failed
  nextAttempt: ZTimestamp.nullish().transform((v) => v ?? null),
  attemptCount: z.number().int(),
  payload: z.unknown().optional(),
  // EXT, absent (undefined) when the service does not offer them.
  eventId: z.string().optional(),
  tags: z.array(z.string()).optional(),
  /** EXT: undefined — the service does not say (ask for the attempts); null — no attempt yet. */
  lastAttempt: ZAttempt.nullable().optional(),
  /** EXT (withAttempts=true on a list): every attempt, oldest first; undefined when not asked or not offered. */
  attempts: z.array(ZAttempt).optional(),
  retriesStopped: ZRetriesStopped,
  /** EXT: the recover or replay-missing run that last queued this delivery; null: the schedule's; undefined: the service does not say. */
  recoverRunId: z.string().nullish(),
});
export type TMessage = z.output<typeof ZMessage>;

/** EXT: a (message, webhook) the service counts failed or retrying (GET /v1/webhooks/messages). */
export const ZTroubledMessage = ZMessage.extend({ webhookId: z.string() });
export type TTroubledMessage = z.output<typeof ZTroubledMessage>;
const ZTroubleCount = z.object({ count: z.number().int(), capped: z.boolean() });
export const ZTroubledCounts = z.object({ cap: z.number().int(), results: z.array(z.object({ webhookId: z.string(), failed: ZTroubleCount, retrying: ZTroubleCount })) });
export type TTroubledCounts = z.output<typeof ZTroubledCounts>;

/** EXT GET /v1/messages: a message of the account, whichever webhooks it went to. */
export const ZAccountMessageSummary = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  timestamp: ZTimestamp,
  tags: z.array(z.string()).nullish().transform((v) => v ?? []),
  excerpt: z.string().optional(),
  /** EXT `withWebhooks=true`: the webhooks it was queued for. */
  webhookIds: z.array(z.string()).optional(),
});
export type TAccountMessageSummary = z.output<typeof ZAccountMessageSummary>;

/** EXT GET /v1/messages' page; a payload search that ran out of the service's time budget says how far back it looked. */
export const ZAccountMessagePage = ZPage(ZAccountMessageSummary).extend({
  partial: z.boolean().optional(),
  searchedUntil: ZTimestamp.optional(),
});
export type TAccountMessagePage = z.output<typeof ZAccountMessagePage>;

/** One webhook's delivery of an account message. */
export const ZMessageDelivery = z.object({
  webhookId: z.string(),
  status: z.string(), // pending | sending | success | failed
  nextAttempt: ZTimestamp.nullish().transform((v) => v ?? null),
  attemptCount: z.number().int(),
  lastAttempt: ZAttempt.nullish().transform((v) => v ?? null),
  /** EXT (withAttempts=true): every attempt, oldest first; undefined when not asked or not offered. */
  attempts: z.array(ZAttempt).optional(),
  retriesStopped: ZRetriesStopped,
  /** EXT: the recover or replay-missing run that last queued this delivery; null: the schedule's; undefined: the service does not say. */
  recoverRunId: z.string().nullish(),
});
export type TMessageDelivery = z.output<typeof ZMessageDelivery>;

/** EXT GET /v1/messages/{id}: the message, its payload, and one delivery per webhook it was queued for ([] when none). */
export const ZAccountMessage = ZAccountMessageSummary.extend({
  payload: z.unknown(),
  deliveries: z.array(ZMessageDelivery),
});
export type TAccountMessage = z.output<typeof ZAccountMessage>;

export const ZSecret = z.object({ key: z.string() });

export { ZWebhookStats, type TWebhookStats } from './stats-schema';

export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    results: z.array(item),
    nextPageToken: z
      .string()
      .nullish()
      .transform((v) => v || undefined),
  });
}
export type TPage<T> = { results: T[]; nextPageToken?: string };

export const ZTokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  token_type: z.string().optional(),
  scope: z.string().optional(),
});

/** RFC 9457 problem details, loosely: whatever of it is there. */
export const ZProblem = z.object({
  title: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
  errors: z
    .array(z.object({ path: z.coerce.string(), message: z.coerce.string() }))
    .optional()
    .catch(undefined),
});

/** RFC 6749 §5.2 token errors. */
export const ZOAuthError = z.object({ error: z.string(), error_description: z.string().optional() });

/** EXT: GET /v1/webhooks/{id}/recover?since=&until= */
export const ZRecoverPreview = z.object({ messages: z.number().int(), since: z.string(), until: z.string() });
export type TRecoverPreview = z.infer<typeof ZRecoverPreview>;

/** EXT: a recover run (POST /v1/webhooks/{id}/recover, GET …/recover/{runId}). */
export const ZRecoverRun = z.object({
  id: z.string(),
  /** recover, or replay-missing (a service before it says nothing: recover). */
  kind: z.enum(['recover', 'replay-missing']).optional().default('recover'),
  webhookId: z.string(),
  since: z.string(),
  until: z.string(),
  status: z.enum(['running', 'done']),
  messages: z.number().int(),
  remaining: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** EXT: the API client whose token started it; null or absent when the service does not say. */
  clientId: z.string().nullish(),
});
export type TRecoverRun = z.infer<typeof ZRecoverRun>;

/** EXT: GET /v1/webhooks/{id}/retry-pending?since=&until= (the same shape as the recover preview). */
export const ZRetryPendingPreview = ZRecoverPreview;
export type TRetryPendingPreview = z.infer<typeof ZRetryPendingPreview>;

/** EXT: POST /v1/webhooks/{id}/retry-pending — how many were made due now, and when. */
export const ZRetryPendingResult = ZRecoverPreview.extend({ dueAt: z.string() });
export type TRetryPendingResult = z.infer<typeof ZRetryPendingResult>;

/** EXT: POST /v1/erasures — what the service erased of one donor (or would, with dryRun). */
export const ZErasureReport = z.object({
  subject: z.object({ kind: z.enum(['email', 'grantId']), sha256: z.string() }),
  dryRun: z.boolean(),
  erasedAt: z.string().nullable(),
  grants: z.object({ found: z.number().int(), erased: z.number().int() }),
  messages: z.object({ found: z.number().int(), erased: z.number().int() }),
  attempts: z.object({ erased: z.number().int() }),
  messageIds: z.array(z.string()),
});
export type TErasureReport = z.infer<typeof ZErasureReport>;

/** EXT: GET and PATCH /v1/retention — how long the service keeps this account's payloads and messages. */
const ZRetentionPair = z.object({ messagePayloadRetention: z.string(), messageRetention: z.string() });
export const ZAccountRetention = z.object({
  effective: ZRetentionPair,
  overrides: z.object({ messagePayloadRetention: z.string().nullable(), messageRetention: z.string().nullable() }),
  defaults: ZRetentionPair,
  updatedAt: z.string().nullable(),
});
export type TAccountRetention = z.infer<typeof ZAccountRetention>;
