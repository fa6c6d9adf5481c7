// The console's receivers and what arrives at them: receipts, forwards, the hosts they were reached
// at (the rest of the console's tables: console.ts, which re-exports these).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, consoleSchema, createdAt, searchJsonIndexes, ts, tsvector, updatedAt, xid8 } from './columns';

export const receivers = consoleSchema.table('receivers', {
  id: uuid().primaryKey().defaultRandom(),
  slug: text().notNull().unique(),
  name: text().notNull(),
  secrets: text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`), // up to two whsec_… (rotation)
  responseStatus: integer().notNull().default(200),
  responseBody: text().notNull().default(''),
  responseDelayMs: integer().notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const receipts = consoleSchema.table(
  'receipts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    // No foreign key to receivers (migration 0046 says why): receivers are never deleted, and ingest writes a receipt for the
    // receiver it has just read.
    receiverId: uuid().notNull(),
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
    tx: xid8()
      .notNull()
      .default(sql`'0'::xid8`),
    // The body as jsonb for payload search (lib/console/search): set at insert; 'null' when the body
    // is not JSON PostgreSQL holds; SQL NULL once the body is gone (purge, erasure) and, for receipts
    // stored before 0019, until the backfill reaches them (lib/console/search/backfill-body-json.ts).
    bodyJson: jsonb(),
    // Its words, kept by the trigger receipts_body_words (migration 0020), as service.messages' payload_words.
    bodyWords: tsvector(),
  },
  (t) => [
    ...searchJsonIndexes('receipts_body', t.bodyJson, t.bodyWords, t.id, sql`body is not null`),
    index().on(t.receiverId, t.id.desc()),
    index('receipts_stream_idx').on(t.receiverId, t.tx, t.id),
    // The purge's next batches: bodies still kept, oldest first; the rows by age.
    index('receipts_body_kept_idx')
      .on(t.receivedAt)
      .where(sql`body_purged_at is null`),
    index('receipts_received_at_idx').on(t.receivedAt),
    index().on(t.messageId, t.receiverId),
    // The receivers' side of the problems view and health: failed checks and error answers in a window;
    // with the id, in the problems page's whole order, so each receiver's range is read lazily (0030).
    index('receipts_troubled_idx')
      .on(t.receiverId, t.receivedAt.desc(), t.id.desc())
      .where(sql`${t.verdict} <> 'valid' or ${t.responseStatus} not between 200 and 299`),
    // The problems view's count of arrivals the sender counts delivered (answered 2xx) whose
    // signature did not verify: only those, not every error answer of the window (0029).
    index('receipts_unverified_accepted_idx')
      .on(t.receiverId, t.receivedAt.desc())
      .where(sql`${t.verdict} <> 'valid' and ${t.responseStatus} between 200 and 299`),
  ],
);

/**
 * The partitions of console.receipts (by range of id, migration 0038): each one's first id and end (the
 * next one's first), when its first id was handed out (null: made ahead, or receipts_p0, from the
 * beginning) and when the next was opened (null: still taking ids). Every receipt in a closed partition
 * arrived before its closedAt, which is what lets a window read skip it (lib/db/partitions/receipt-slots.ts).
 */
export const receiptPartitions = consoleSchema.table('receipt_partitions', {
  name: text().primaryKey(),
  firstId: bigint({ mode: 'number' }).notNull(),
  endId: bigint({ mode: 'number' }).notNull(),
  openedAt: ts(),
  closedAt: ts(),
});

/**
 * Each receiver's troubled arrivals (failed the signature check, or answered non-2xx) counted per
 * hour (UTC): how many, how many of them answered 2xx, the newest. The health home's receiver side
 * reads these for a window's whole hours and the receipts only for its first part-hour, so its cost
 * does not grow with the failures of a week. Kept by statement triggers on console.receipts
 * (migration 0029: inserts add, deletes recount the hours they touched, a truncate empties it).
 */
export const receiptTroubleHours = consoleSchema.table(
  'receipt_trouble_hours',
  {
    receiverId: uuid().notNull(),
    hour: ts().notNull(),
    failures: integer().notNull(),
    unverifiedAccepted: integer().notNull(),
    lastAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.receiverId, t.hour] })],
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
