// The service's webhooks and what goes to them: messages, their deliveries and attempts, the stats'
// histograms and recover runs (the rest of the service's tables: service.ts, which re-exports these).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, searchJsonIndexes, service, ts, tsvector, updatedAt } from './columns';

export const webhooks = service.table(
  'webhooks',
  {
    id: text().primaryKey(), // ep_<ksuid>
    accountId: uuid().notNull(),
    url: text().notNull(),
    eventTypes: text().array().notNull(),
    description: text().notNull().default(''),
    disabled: boolean().notNull().default(false),
    disabledReason: text(),
    disabledAt: ts(),
    metadata: jsonb().notNull().default({}),
    failingSince: ts(),
    // `webhook.failing` (lib/service/delivery/failing-warnings.ts): the highest share of the disable
    // threshold (50, 75, 90) already announced, and for which stretch (its `failing_since`): once each.
    failingWarnedPercent: smallint(),
    failingWarnedSince: ts(),
    // EXT pause (migration 0033): set while paused — deliveries queue and none is sent, the failing
    // stretch's clock stands still; null when running.
    pausedAt: ts(),
    // EXT rate cap (migration 0034): deliveries per second across every worker; null: none. Its
    // schedule is webhook_rates' row (not this one, which the worker's batches lock).
    rateLimit: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts(),
  },
  (t) => [
    index().on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // The failing-warning sweep: the enabled webhooks in a failing stretch, oldest stretch first.
    index('webhooks_failing_idx')
      .on(t.failingSince)
      .where(sql`failing_since is not null and not disabled and deleted_at is null`),
  ],
);

/**
 * A capped webhook's schedule (lib/service/delivery/claim.ts): the end of the slots handed out so
 * far (each waiting delivery's slot is 1.02 s / rateLimit after the one before), and the times of
 * its sends in the last 1.02 s (at most rateLimit), written as each send is admitted
 * (lib/service/delivery/admit-send.ts), however late a worker woke or long a claimed job waited. A
 * row of its own so a claim or an admission that locks it never waits on the worker's batches,
 * which lock the webhook's.
 */
export const webhookRates = service.table('webhook_rates', {
  webhookId: text()
    .primaryKey()
    .references(() => webhooks.id),
  nextAt: ts().notNull(),
  sentAt: ts()
    .array()
    .notNull()
    .default(sql`'{}'`),
});

export const webhookSecrets = service.table(
  'webhook_secrets',
  {
    id: uuid().primaryKey().defaultRandom(),
    webhookId: text()
      .notNull()
      .references(() => webhooks.id),
    secret: text().notNull(), // whsec_…: needed in clear to sign
    createdAt: createdAt(),
    expiresAt: ts(), // null: current; set: the previous secret, still signing until then
  },
  (t) => [index().on(t.webhookId)],
);

/**
 * One event as sent to an account's webhooks. Partitioned by created_at (migration 0040), as its deliveries are: the primary
 * key is (id, created_at), and a lookup by id bounds created_at by the second its KSUID names (message-time.ts).
 */
export const messages = service.table(
  'messages',
  {
    id: text().notNull(), // msg_<ksuid>
    accountId: uuid().notNull(),
    // evt_<ksuid>: names the event itself, whichever webhooks it went to. Made with its message, never given by a client:
    // unique by construction, indexed but not a unique key (a partitioned table's would need created_at; migration 0040).
    eventId: text().notNull(),
    eventType: text().notNull(),
    // The exact JSON body sent, kept as text so every retry is byte-identical (jsonb reorders keys).
    payload: text().notNull(),
    // What the event is about (grant:<id>, tracking:<code>, donor:<email>, connect:<id>; test), to find it by.
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    // Retention (lib/service/retention): when the payload was replaced by its tombstone
    // ({"purged":{…}} with its size and SHA-256), and when a donor erasure replaced it ({"erased":{…}}).
    payloadPurgedAt: ts(),
    erasedAt: ts(),
    // The payload as jsonb for payload search (EXT GET /v1/messages?payloadPath=…): set at insert;
    // 'null' when it cannot be searched (purged, erased, or not JSON PostgreSQL holds); SQL NULL only
    // for messages stored before 0019 until the backfill reaches them (lib/service/messages/backfill-payload-json.ts).
    payloadJson: jsonb(),
    // Its words ("free text" search), kept by the trigger messages_payload_words (migration 0020)
    // whenever payload_json is written: a phrase is then re-checked against stored words instead of
    // words made again from the jsonb for every candidate row (60 µs each; ~1 µs read).
    payloadWords: tsvector(),
    // The W3C traceparent of the request that made it, when traces were exported then (lib/telemetry):
    // its attempts' spans link to that request's, whichever process sends them.
    traceParent: text(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index().on(t.accountId, t.createdAt.desc()),
    index().on(t.accountId, t.eventId),
    index().using('gin', t.tags),
    ...searchJsonIndexes('messages_payload', t.payloadJson, t.payloadWords, t.id),
    // The purge's next batches: payloads still kept, oldest first; the rows by age.
    index('messages_payload_kept_idx')
      .on(t.createdAt)
      .where(sql`payload_purged_at is null`),
    index('messages_created_at_idx').on(t.createdAt),
    // An account with its own retention (service.account_retention): its payloads still kept, oldest first.
    index('messages_account_payload_kept_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`payload_purged_at is null`),
  ],
);

/**
 * One row per (message, webhook): the delivery queue and the per-webhook message status. Partitioned by created_at, which is
 * its message's (migration 0039): the primary key is (id, created_at) and the one-per-pair index (message_id, webhook_id,
 * created_at), which holds the same pairs, since a message has one created_at and its deliveries are written with it; its
 * message is (message_id, created_at) since messages are partitioned too (migration 0040), with no foreign key since 0045.
 */
export const deliveries = service.table(
  'deliveries',
  {
    id: uuid().notNull().defaultRandom(),
    messageId: text().notNull(),
    // Its message is (message_id, created_at), its webhook webhook_id: no foreign keys since migration 0045 (each locked
    // every messages partition and the webhooks for a deliveries partition's drop): written with its message or for one
    // the statement locks (replay-missing), and retention never takes one without the other (0045 says how).
    webhookId: text().notNull(),
    accountId: uuid().notNull(),
    eventType: text().notNull(),
    status: text().notNull().default('pending'), // pending | sending | success | failed
    attemptCount: integer().notNull().default(0), // every attempt, manual ones included
    scheduledAttemptCount: integer().notNull().default(0), // the worker's attempts: the position in the retry schedule
    nextAttemptAt: ts(),
    leaseUntil: ts(),
    leaseOwner: text(),
    // Set when a recover run re-queued this delivery: its next attempt is that run's one manual re-send.
    recoverRunId: text(),
    // Why its retries stopped before the schedule ran out, and when (EXT `retriesStopped`): a donor
    // erasure ('donor_erased') or retention ('payload_purged') took the payload it would send.
    stopReason: text(),
    stoppedAt: ts(),
    // EXT rate cap (migration 0034): the slot its webhook's cap gave it, which is its next attempt
    // while it waits (lib/service/delivery/claim.ts); null when it has none.
    slotAt: ts(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    uniqueIndex().on(t.messageId, t.webhookId, t.createdAt),
    // A recover run's progress: its deliveries by state.
    index('deliveries_recover_run_idx')
      .on(t.recoverRunId, t.status)
      .where(sql`recover_run_id is not null`),
    index().on(t.webhookId, t.createdAt.desc(), t.messageId.desc()),
    // A webhook's messages filtered by status (the timeline's filter), in list order.
    index('deliveries_webhook_status_idx').on(t.webhookId, t.status, t.createdAt.desc(), t.messageId.desc()),
    // EXT GET /v1/webhooks/messages?state=retrying: pending or sending after two or more attempts.
    index('deliveries_retrying_idx')
      .on(t.webhookId, t.createdAt.desc(), t.messageId.desc())
      .where(sql`status in ('pending', 'sending') and attempt_count >= 2`),
  ],
);

/**
 * The delivery queue (migration 0041): the deliveries not settled (pending or sending), unpartitioned, kept by triggers on
 * deliveries (the truth, which every other statement writes); the worker's claim finds the due ones here (delivery/claim.ts).
 */
export const deliveryQueue = service.table(
  'delivery_queue',
  {
    id: uuid().primaryKey(),
    createdAt: ts().notNull(),
    webhookId: text().notNull(),
    status: text().notNull(),
    nextAttemptAt: ts(),
    leaseUntil: ts(),
  },
  (t) => [
    index('delivery_queue_due_idx').on(t.nextAttemptAt),
    index('delivery_queue_leased_idx')
      .on(t.leaseUntil)
      .where(sql`status = 'sending'`),
  ],
);

export const attempts = service.table(
  'attempts',
  {
    // atmpt_<ksuid>. The primary key is (id, created_at): the table is partitioned by created_at (migration 0037), whose key
    // a primary key must hold. Ids are random (a KSUID), so one id is one row in practice; lookups by id read its prefix.
    id: text().notNull(),
    // Its delivery's id, with no foreign key since migration 0039 (deliveries partitioned: a key would need the delivery's
    // created_at in every attempt). An attempt is written only for a delivery its writer holds (a claim, a resend's row).
    deliveryId: uuid().notNull(),
    messageId: text().notNull(),
    webhookId: text().notNull(),
    accountId: uuid().notNull(),
    url: text().notNull(),
    createdAt: createdAt(),
    status: text().notNull(), // success | failed
    responseStatusCode: integer().notNull(),
    responseDurationMs: integer().notNull(),
    response: text().notNull().default(''),
    // Set when retention emptied `response` (its size and SHA-256 kept beside it); erasure sets it too.
    responsePurgedAt: ts(),
    responseSize: integer(),
    responseSha256: text(),
    // With responsePurgedAt: a donor erasure emptied it, not retention (EXT `responsePurged.reason`).
    responseErased: boolean().notNull().default(false),
    triggerType: text().notNull(), // scheduled | manual
    // Counted in service.attempt_histograms. New rows are (the insert's trigger counts them); rows
    // stored before migration 0012 are not until the backfill has added them.
    rolledUp: boolean().notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index().on(t.webhookId, t.messageId, t.createdAt.desc(), t.id.desc()),
    index('attempts_not_rolled_up_idx')
      .on(t.webhookId)
      .where(sql`not rolled_up`),
    // A webhook's attempts in time order, with what the stats read of each (index-only scans of a
    // window: its buckets, percentiles and the current failure streak).
    index('attempts_webhook_time_idx').on(t.webhookId, t.createdAt, t.status, t.responseDurationMs),
    // Its newest success, however long it has been failing since.
    index('attempts_webhook_success_idx')
      .on(t.webhookId, t.createdAt)
      .where(sql`status = 'success'`),
    // The purge's next batches of response bodies, oldest first.
    index('attempts_response_kept_idx')
      .on(t.createdAt)
      .where(sql`response_purged_at is null`),
    // An account with its own retention: its response bodies still kept, oldest first.
    index('attempts_account_response_kept_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`response_purged_at is null`),
  ],
);

/**
 * Each webhook's attempts counted per bucket of time (5 min, 1 h, 6 h: the stats windows' buckets),
 * one row a bucket: its attempts, its successes, and its attempts per latency bucket (`latency[k + 1]`
 * counts latency bucket k of lib/service/stats/latency-buckets.ts, 0–64). The stats read these
 * instead of the attempts, so their cost does not grow with volume — nor with how spread the
 * response times are (migration 0021: a row per latency bucket before, and a busy day read ~5× the
 * rows of a quiet one). Kept by a statement trigger on service.attempts (migration 0012; the
 * function it calls writes here since 0021, counting per latency bucket first since 0022), in the statement that inserts the attempts; attempts
 * stored before it (rolled_up false) are added by the backfill (lib/service/stats/backfill-rollups.ts).
 */
export const attemptHistograms = service.table(
  'attempt_histograms',
  {
    webhookId: text().notNull(),
    bucketSeconds: integer().notNull(),
    bucketStart: ts().notNull(),
    attempts: integer().notNull(),
    successes: integer().notNull(),
    latency: integer().array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.webhookId, t.bucketSeconds, t.bucketStart] })],
);

/** EXT POST /v1/webhooks/{id}/recover: one run re-sends the webhook's failed messages of a window once each. */
export const recoverRuns = service.table(
  'recover_runs',
  {
    id: text().primaryKey(), // rcvr_<ksuid>
    accountId: uuid().notNull(),
    webhookId: text()
      .notNull()
      .references(() => webhooks.id),
    since: ts().notNull(),
    until: ts(), // as asked: null when the request named no end (then the window ended at createdAt)
    messages: integer().notNull(), // how many failed messages the run re-queued
    // recover: failed deliveries re-queued; replay-missing: deliveries made for messages it never got
    kind: text().notNull().default('recover'),
    createdAt: createdAt(),
    // The API client whose token started it (0032): who replayed, when no console audit names a person.
    clientId: text(),
  },
  (t) => [index().on(t.webhookId, t.createdAt.desc())],
);
