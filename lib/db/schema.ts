// Every table, in one file on purpose: drizzle-kit diffs this one schema into migrations, and the
// tables of each half refer to each other. (Longer than other files for that reason.)
import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// One database, two schemas. `service` belongs to the Giving Connect API (lib/service);
// `console` to the receiver and dashboard (lib/console). Neither half reads the other's schema.

const ts = (name?: string) =>
  name
    ? timestamp(name, { withTimezone: true, mode: 'date', precision: 3 })
    : timestamp({ withTimezone: true, mode: 'date', precision: 3 });
const createdAt = () => ts().notNull().defaultNow();
const updatedAt = () => ts().notNull().defaultNow();

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});
// A transaction id (PostgreSQL's xid8, read as decimal text): the order in which rows became final.
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
});
// Words with their positions, as to_tsvector makes them. Never written by the app: a trigger of
// migration 0020 derives the payload-search columns from the jsonb beside them.
const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});

/* ------------------------------------------------------------------ service */

export const service = pgSchema('service');

export const accounts = service.table('accounts', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  createdAt: createdAt(),
});

export const clients = service.table(
  'clients',
  {
    id: text().primaryKey(), // the client_id
    accountId: uuid()
      .notNull()
      .references(() => accounts.id),
    secretHash: text().notNull(),
    createdAt: createdAt(),
    revokedAt: ts(),
  },
  (t) => [index().on(t.accountId)],
);

/** Failed token exchanges per client id and source address, for the token endpoint's 429. */
export const tokenFailures = service.table(
  'token_failures',
  {
    key: text().primaryKey(),
    count: integer().notNull().default(0),
    windowStart: ts().notNull().defaultNow(),
  },
  (t) => [index('token_failures_window_start_idx').on(t.windowStart)],
);

export const signingKeys = service.table(
  'signing_keys',
  {
    kid: text().primaryKey(),
    privateJwk: jsonb().notNull(),
    publicJwk: jsonb().notNull(),
    createdAt: createdAt(),
    retiredAt: ts(),
  },
  // At most one active key: instances starting at once on one database cannot both create one.
  (t) => [uniqueIndex('signing_keys_one_active').on(sql`(true)`).where(sql`${t.retiredAt} is null`)],
);

export const nonprofits = service.table('nonprofits', {
  id: uuid().primaryKey().defaultRandom(),
  ein: text().notNull().unique(),
  name: text().notNull(),
  preferredName: text(), // the name the nonprofit goes by, when not its legal one (the public SDK's field)
  website: text(), // an absolute https URL
  contact: jsonb().notNull(), // the contact user: kept for support, never returned
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const connects = service.table(
  'connects',
  {
    id: text().primaryKey(), // test_<ksuid>
    accountId: uuid()
      .notNull()
      .references(() => accounts.id),
    nonprofitId: uuid()
      .notNull()
      .references(() => nonprofits.id),
    name: text().notNull(),
    active: boolean().notNull().default(true),
    metadata: jsonb().notNull().default({}),
    apiKey: text().notNull(), // shown again by Get Connect, so kept; looked up by its hash
    apiKeyHash: text().notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.accountId, t.nonprofitId)],
);

export const grants = service.table(
  'grants',
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: uuid().notNull(),
    connectId: text()
      .notNull()
      .references(() => connects.id),
    nonprofitId: uuid().notNull(),
    trackingId: text().notNull().unique(),
    /** The Connect-flow session that created the grant (`wfs_…`); API-created grants get one of their own. */
    workflowSessionId: text().notNull(),
    amount: integer().notNull(),
    feeAmount: integer().notNull(),
    coveredFees: boolean().notNull(),
    status: text().notNull(),
    fundId: text().notNull(),
    fundName: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    note: text(),
    metadata: jsonb().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // A donor erasure (EXT POST /v1/erasures) replaced the donor's fields with tombstones.
    erasedAt: ts(),
  },
  (t) => [index().on(t.connectId, t.createdAt.desc(), t.id.desc()), index('grants_email_idx').on(sql`lower(${t.email})`)],
);

export const idempotencyKeys = service.table(
  'idempotency_keys',
  {
    connectId: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    statusCode: integer().notNull(),
    body: jsonb().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.connectId, t.key] })],
);

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts(),
  },
  (t) => [
    index().on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // The failing-warning sweep: the enabled webhooks in a failing stretch, oldest stretch first.
    index('webhooks_failing_idx').on(t.failingSince).where(sql`failing_since is not null and not disabled and deleted_at is null`),
  ],
);

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

export const messages = service.table(
  'messages',
  {
    id: text().primaryKey(), // msg_<ksuid>
    accountId: uuid().notNull(),
    eventId: text().notNull(), // evt_<ksuid>: names the event itself, whichever webhooks it went to
    eventType: text().notNull(),
    // The exact JSON body sent, kept as text so every retry is byte-identical (jsonb reorders keys).
    payload: text().notNull(),
    // What the event is about (grant:<id>, tracking:<code>, donor:<email>, connect:<id>; test), to find it by.
    tags: text().array().notNull().default(sql`'{}'::text[]`),
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
  },
  (t) => [
    index().on(t.accountId, t.createdAt.desc()),
    uniqueIndex().on(t.accountId, t.eventId),
    index().using('gin', t.tags),
    ...searchJsonIndexes('messages_payload', t.payloadJson, t.payloadWords, t.id),
    // The purge's next batches: payloads still kept, oldest first; the rows by age.
    index('messages_payload_kept_idx').on(t.createdAt).where(sql`payload_purged_at is null`),
    index('messages_created_at_idx').on(t.createdAt),
    // An account with its own retention (service.account_retention): its payloads still kept, oldest first.
    index('messages_account_payload_kept_idx').on(t.accountId, t.createdAt).where(sql`payload_purged_at is null`),
  ],
);

/** One row per (message, webhook): the delivery queue and the per-webhook message status. */
export const deliveries = service.table(
  'deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: text()
      .notNull()
      .references(() => messages.id),
    webhookId: text()
      .notNull()
      .references(() => webhooks.id),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex().on(t.messageId, t.webhookId),
    // A recover run's progress: its deliveries by state.
    index('deliveries_recover_run_idx').on(t.recoverRunId, t.status).where(sql`recover_run_id is not null`),
    index().on(t.webhookId, t.createdAt.desc(), t.messageId.desc()),
    index('deliveries_due_idx').on(t.nextAttemptAt).where(sql`status in ('pending', 'sending')`),
    // A webhook's messages filtered by status (the timeline's filter), in list order.
    index('deliveries_webhook_status_idx').on(t.webhookId, t.status, t.createdAt.desc(), t.messageId.desc()),
    // The worker's next wake-up: the earliest lease to run out.
    index('deliveries_leased_idx').on(t.leaseUntil).where(sql`status = 'sending'`),
    // EXT GET /v1/webhooks/messages?state=retrying: pending or sending after two or more attempts.
    index('deliveries_retrying_idx')
      .on(t.webhookId, t.createdAt.desc(), t.messageId.desc())
      .where(sql`status in ('pending', 'sending') and attempt_count >= 2`),
  ],
);

export const attempts = service.table(
  'attempts',
  {
    id: text().primaryKey(), // atmpt_<ksuid>
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id),
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
    index().on(t.webhookId, t.messageId, t.createdAt.desc(), t.id.desc()),
    index('attempts_not_rolled_up_idx').on(t.webhookId).where(sql`not rolled_up`),
    // A webhook's attempts in time order, with what the stats read of each (index-only scans of a
    // window: its buckets, percentiles and the current failure streak).
    index('attempts_webhook_time_idx').on(t.webhookId, t.createdAt, t.status, t.responseDurationMs),
    // Its newest success, however long it has been failing since.
    index('attempts_webhook_success_idx').on(t.webhookId, t.createdAt).where(sql`status = 'success'`),
    // The purge's next batches of response bodies, oldest first.
    index('attempts_response_kept_idx').on(t.createdAt).where(sql`response_purged_at is null`),
    // An account with its own retention: its response bodies still kept, oldest first.
    index('attempts_account_response_kept_idx').on(t.accountId, t.createdAt).where(sql`response_purged_at is null`),
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
  },
  (t) => [index().on(t.webhookId, t.createdAt.desc())],
);

/** The service's purge (lib/service/retention): what it has purged so far, per kind, and its passes. */
export const serviceRetentionProgress = service.table('retention_progress', {
  what: text().primaryKey(), // message_payloads | attempt_responses | messages
  purged: bigint({ mode: 'number' }).notNull().default(0),
  lastPurgeAt: ts(),
  passStartedAt: ts(),
  passEndedAt: ts(),
});

/**
 * EXT /v1/retention: an account's own retention over the deployment's defaults (MESSAGE_PAYLOAD_RETENTION,
 * MESSAGE_RETENTION); null: the default. The purge (lib/service/retention) reads it at each tick.
 */
export const accountRetention = service.table('account_retention', {
  accountId: uuid()
    .primaryKey()
    .references(() => accounts.id),
  messagePayloadRetentionMs: bigint({ mode: 'number' }),
  messageRetentionMs: bigint({ mode: 'number' }),
  updatedAt: updatedAt(),
});

/* ------------------------------------------------------------------ console */

export const consoleSchema = pgSchema('console');

export const users = consoleSchema.table('users', {
  id: uuid().primaryKey().defaultRandom(),
  email: text().notNull().unique(),
  passwordHash: text(), // null: signs in only by single sign-on
  /** viewer | operator | admin (lib/console/staff/roles.ts); users made before roles (0013) are admins. */
  role: text().notNull().default('viewer'),
  disabledAt: ts(), // set: cannot sign in, and its sessions are gone
  createdAt: createdAt(),
  lastLoginAt: ts(),
  /** A one-time password (an admin's add or reset): nothing but changing it until it is changed (0024). */
  mustChangePassword: boolean().notNull().default(false),
  /** The role came from the identity provider's role claim at the last single sign-on, which sets it at each (0024). */
  roleFromClaim: boolean().notNull().default(false),
});

/** Staff sessions: the cookie names one row; signing out deletes it, so a copied cookie stops working. */
export const sessions = consoleSchema.table(
  'sessions',
  {
    id: text().primaryKey(), // random, 32 characters; sealed inside the cookie
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
  },
  (t) => [index().on(t.userId), index().on(t.expiresAt)],
);

export const loginFailures = consoleSchema.table(
  'login_failures',
  {
    key: text().primaryKey(), // e.g. email or source address
    count: integer().notNull().default(0),
    windowStart: ts().notNull().defaultNow(),
  },
  (t) => [index('login_failures_window_start_idx').on(t.windowStart)],
);

export const settings = consoleSchema.table('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});

export const receivers = consoleSchema.table('receivers', {
  id: uuid().primaryKey().defaultRandom(),
  slug: text().notNull().unique(),
  name: text().notNull(),
  secrets: text().array().notNull().default(sql`'{}'::text[]`), // up to two whsec_… (rotation)
  responseStatus: integer().notNull().default(200),
  responseBody: text().notNull().default(''),
  responseDelayMs: integer().notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The indexes of payload search over a derived jsonb column: `@>` containment (jsonb_path_ops) for
 * `path=value`, the words of its strings and numbers for "free text" (phraseto_tsquery), and the
 * rows the backfill has yet to parse (empty once it is done: inserts always set the column).
 */
function searchJsonIndexes(prefix: string, column: AnyPgColumn, words: AnyPgColumn, id: AnyPgColumn, pending?: SQL) {
  return [
    index(`${prefix}_json_idx`).using('gin', sql`${column} jsonb_path_ops`),
    index(`${prefix}_words_gin_idx`).using('gin', words),
    index(`${prefix}_json_pending_idx`).on(id).where(pending ? sql`${column} is null and ${pending}` : sql`${column} is null`),
    // Rows whose jsonb was made before their words column existed (0019 → 0020), for the backfill.
    index(`${prefix}_words_pending_idx`).on(id).where(sql`${words} is null and ${column} is not null`),
  ];
}

export const receipts = consoleSchema.table(
  'receipts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    receiverId: uuid()
      .notNull()
      .references(() => receivers.id),
    method: text().notNull(),
    path: text().notNull(),
    query: text().notNull().default(''),
    headers: jsonb().notNull(), // [[name, value], …] in arrival order
    body: bytea(), // null when over the size limit
    bodyUtf8: boolean().notNull().default(true), // lets search run convert_from(body) only where it cannot fail
    bodySize: integer().notNull(),
    oversize: boolean().notNull().default(false),
    sourceIp: text().notNull().default(''),
    receivedAt: createdAt(),
    messageId: text(), // webhook-id / svix-id header
    verdict: text().notNull(),
    verdictReason: text().notNull().default(''),
    // (duplicate is derived when read: lib/console/ingest/receipt-duplicate.ts; migration 0006 dropped the column)
    responseStatus: integer().notNull(),
    // The address the request came to (its Host, or X-Forwarded-Host/Forwarded with TRUST_PROXY):
    // which webhook URL an arrival answers when several reach this receiver. '' before 0011.
    host: text().notNull().default(''),
    // Retention (lib/console/retention): the body's SHA-256 (hex) kept when the body and headers were
    // purged, and when; erasedAt when a donor erasure replaced them.
    bodySha256: text(),
    bodyPurgedAt: ts(),
    erasedAt: ts(),
    // The transaction that stored it (pg_current_xact_id(), set by the migration's hand-written
    // default; '0' for rows stored before). A receiver's stream reads in (tx, id) order and only
    // rows whose transaction is older than every one still running: nothing can appear before them
    // later (lib/console/listen/read-settled.ts). Ids alone are not commit order.
    tx: xid8().notNull().default(sql`'0'::xid8`),
    // The body as jsonb for payload search (lib/console/search): set at insert; 'null' when the body
    // is not JSON PostgreSQL holds; SQL NULL once the body is gone (purge, erasure) and, for receipts
    // stored before 0019, until the backfill reaches them (lib/console/search/backfill-body-json.ts).
    bodyJson: jsonb(),
    // Its words, kept by the trigger receipts_body_words (migration 0020) as payloadWords above.
    bodyWords: tsvector(),
  },
  (t) => [
    ...searchJsonIndexes('receipts_body', t.bodyJson, t.bodyWords, t.id, sql`body is not null`),
    index().on(t.receiverId, t.id.desc()),
    index('receipts_stream_idx').on(t.receiverId, t.tx, t.id),
    // The purge's next batches: bodies still kept, oldest first; the rows by age.
    index('receipts_body_kept_idx').on(t.receivedAt).where(sql`body_purged_at is null`),
    index('receipts_received_at_idx').on(t.receivedAt),
    index().on(t.messageId, t.receiverId),
    // The receivers' side of the problems view and health: failed checks and error answers in a window.
    index('receipts_troubled_idx')
      .on(t.receiverId, t.receivedAt.desc())
      .where(sql`${t.verdict} <> 'valid' or ${t.responseStatus} not between 200 and 299`),
  ],
);

/**
 * A receipt sent again by staff to a URL of their choosing (lib/console/forward/): what was sent
 * (the headers; the body is the receipt's) and the reply, or the network error. Its reply body goes
 * with its receipt's body (retention, erasure); the row goes with the receipt.
 */
export const forwards = consoleSchema.table(
  'forwards',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    receiptId: bigint({ mode: 'number' })
      .notNull()
      .references(() => receipts.id, { onDelete: 'cascade' }),
    at: createdAt(),
    actorId: uuid(),
    actor: text().notNull(), // the staff e-mail at the time
    url: text().notNull(),
    mode: text().notNull(), // verbatim | resign
    method: text().notNull(),
    sentHeaders: jsonb().notNull(), // [[name, value], …] in the order sent
    status: integer().notNull(), // 0: no reply (see error)
    responseHeaders: jsonb().notNull().default([]),
    responseBody: bytea(), // the first 64 KiB; null when purged
    responseSize: integer().notNull().default(0), // bytes read (at most the limit)
    responseTruncated: boolean().notNull().default(false),
    elapsedMs: integer().notNull(),
    error: text(),
    bodyPurgedAt: ts(),
  },
  (t) => [index().on(t.receiptId, t.id.desc())],
);

/**
 * The addresses verified arrivals at a receiver came to (a proxy's public name, a LAN address):
 * a webhook URL with one of these hosts and the receiver's path reaches this console. Written once
 * per (receiver, host) and process by the receiver (lib/console/receivers/learn-host.ts).
 */
export const receiverHosts = consoleSchema.table(
  'receiver_hosts',
  {
    receiverId: uuid()
      .notNull()
      .references(() => receivers.id),
    host: text().notNull(),
    firstSeenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.receiverId, t.host] })],
);

/**
 * Every staff action, append-only: who (the staff e-mail at the time), what (action + target ids),
 * the result (`ok` or an error code) and small details — never secrets. Written by
 * lib/console/audit/record-audit.ts alone; nothing in the console updates or deletes a row.
 */
export const auditLog = consoleSchema.table(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: createdAt(),
    actorId: uuid(), // null for a failed login of no known user
    actor: text().notNull(), // the staff e-mail (as typed, for a failed login)
    action: text().notNull(),
    target: text().notNull().default(''), // the ids acted on, space-separated (`ep_… msg_…`)
    result: text().notNull(), // ok | an error code (`not_found`, `conflict`, `wrong_password`, …)
    detail: jsonb().notNull().default({}),
    environment: text().notNull().default(''),
    source: text().notNull().default(''), // the client's address when known
  },
  (t) => [
    index().on(t.at.desc(), t.id.desc()),
    index().on(t.actor, t.id.desc()),
    index().on(t.action, t.id.desc()),
  ],
);

/**
 * Read-only links to one case for people without a login (lib/console/share/): the token is shown
 * once and only its SHA-256 is kept; a link answers until it expires or is revoked.
 */
export const shares = consoleSchema.table(
  'shares',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(), // SHA-256 (hex) of the token
    query: text().notNull(), // the case's search term (/cases/{query})
    ticket: text().notNull().default(''),
    environment: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text().notNull(),
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
  },
  (t) => [index().on(t.query, t.expiresAt)],
);

/**
 * Personal access tokens: a staff user's bearer token for reading a receiver's receipts
 * (GET /api/receivers/{id}/stream, what `npm run listen` reads). Only the SHA-256 of the token is
 * stored; it is shown once. Revoked or expired, or its owner disabled or below operator, it opens nothing.
 */
export const personalTokens = consoleSchema.table(
  'personal_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text().notNull().unique(), // SHA-256 (hex) of the token
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
    lastUsedAt: ts(),
  },
  (t) => [index().on(t.userId, t.createdAt)],
);

export const trackedWebhooks = consoleSchema.table(
  'tracked_webhooks',
  {
    environment: text().notNull(), // sandbox | production
    webhookId: text().notNull(),
    receiverId: uuid().references(() => receivers.id),
    url: text().notNull().default(''),
    description: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.environment, t.webhookId] })],
);

/** Staff-defined alert rules, evaluated by the worker process (lib/console/alerts). */
export const alertRules = consoleSchema.table(
  'alert_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    environment: text().notNull(), // sandbox | production: whose API the facts come from
    name: text().notNull(),
    kind: text().notNull(), // failure_streak | success_rate | receiver_failures | webhook_disabled | grant_undelivered
    webhookId: text(), // the scope: one webhook, or null for every webhook of the account
    threshold: doublePrecision().notNull().default(0), // streak length, success rate %, failed arrivals, or minutes
    window: text(), // success_rate, receiver_failures: 1h | 24h | 7d
    minAttempts: integer().notNull().default(10), // success_rate: fewer attempts in the window never fire
    targetUrl: text().notNull(), // https://… (a POST) or mailto:… (an e-mail through SMTP_URL)
    // How a URL target is spoken to: 'standard' (a signed Standard Webhooks POST) | 'slack' (Slack's
    // incoming-webhook JSON); 'email' for a mailto: target.
    targetFormat: text().notNull().default('standard'),
    secret: text().notNull(), // whsec_…: needed in clear to sign the POSTs; shown once at creation
    enabled: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.environment, t.createdAt.desc())],
);

/** One row per time a rule's condition started for a subject; firing while cleared_at is null. */
export const alerts = consoleSchema.table(
  'alerts',
  {
    id: uuid().primaryKey().defaultRandom(),
    ruleId: uuid()
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    subject: text().notNull(), // webhook:<id> | grant:<id>
    firedAt: createdAt(),
    clearedAt: ts(),
    details: jsonb().notNull().default({}),
    // The signed POST to the rule's target when it fired, and when it cleared: status 0 = no response.
    firedPostAt: ts(),
    firedPostStatus: integer(),
    firedPostError: text(),
    clearedPostAt: ts(),
    clearedPostStatus: integer(),
    clearedPostError: text(),
    // Staff: acknowledged (firing but quiet: no repeats), or snoozed until a time; both cleared with the alert.
    acknowledgedBy: text(), // the staff member's e-mail
    acknowledgedAt: ts(),
    acknowledgeNote: text(),
    snoozedUntil: ts(),
    // The last time it was sent as firing (the first notice or a repeat every ALERT_REPEAT), and how many repeats.
    notifiedAt: ts(),
    repeats: integer().notNull().default(0),
  },
  (t) => [
    // Fires once: one open alert per (rule, subject) until it clears.
    uniqueIndex('alerts_open_once').on(t.ruleId, t.subject).where(sql`${t.clearedAt} is null`),
    index().on(t.firedAt.desc()),
    index('alerts_firing_idx').on(t.firedAt).where(sql`${t.clearedAt} is null`),
  ],
);

/** Named leases, so that one process of several does a periodic job at a time (the alert evaluation). */
export const leases = consoleSchema.table('leases', {
  name: text().primaryKey(),
  owner: text().notNull(),
  until: ts().notNull(),
});

/** The console's purge (lib/console/retention): what it has purged so far, per kind, and its passes. */
export const consoleRetentionProgress = consoleSchema.table('retention_progress', {
  what: text().primaryKey(), // receipt_bodies | receipts
  purged: bigint({ mode: 'number' }).notNull().default(0),
  lastPurgeAt: ts(),
  passStartedAt: ts(),
  passEndedAt: ts(),
});
