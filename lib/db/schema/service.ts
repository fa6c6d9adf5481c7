// The service's tables (pg schema `service`, lib/service): accounts and their clients and keys,
// nonprofits, Connects, grants, retention; its webhooks and messages are in service-webhooks.ts.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, service, ts, updatedAt } from './columns';

export * from './service-webhooks';

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
  (t) => [
    uniqueIndex('signing_keys_one_active')
      .on(sql`(true)`)
      .where(sql`${t.retiredAt} is null`),
  ],
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
  // created_at: the purge takes the keys past their window oldest first (lib/service/retention/expire-idempotency-keys.ts).
  (t) => [primaryKey({ columns: [t.connectId, t.key] }), index().on(t.createdAt)],
);

/** The service's purge (lib/service/retention): what it has purged so far, per kind, and its passes. */
export const serviceRetentionProgress = service.table('retention_progress', {
  what: text().primaryKey(), // message_payloads | attempt_responses | messages | idempotency_keys | …_partitions | pass
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

/**
 * Named leases of the service's periodic jobs (its purge, lib/db/purge-loop.ts), so that one process of
 * several runs each at a time. Before 0027 the service's purge took its lease in console.leases.
 */
export const serviceLeases = service.table('leases', {
  name: text().primaryKey(),
  owner: text().notNull(),
  until: ts().notNull(),
});
