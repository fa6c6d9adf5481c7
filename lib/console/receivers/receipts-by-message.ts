import { and, asc, gte, inArray, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { TSignatureVerdict } from '@/lib/constants';
import { PgDialect } from 'drizzle-orm/pg-core';
import { getDb } from '@/lib/db/client';
import { driverRows } from '@/lib/db/query';
import { receipts } from '@/lib/db/schema/console';
import { receiptBodyGone } from '../retention/body-gone';
import { consoleRetention } from '../retention/retention-settings';
import { isDuplicateFrom } from '../ingest/receipt-duplicate';
import type { TReceipt } from './';
import { newestFirst } from '@/lib/db/paging';
import { receiptIdSince, receiptIdSinceMessages } from './receipt-partitions';

// Receipts joined to messages by (webhook-id, receiver): one webhook's message never shows
// another receiver's arrivals, although every webhook of an account gets the same message id.
// Served by the (message_id, receiver_id) index. A message's receipts, and the earlier copy that makes one a duplicate,
// arrived after it was made: the reads by message id take only the partitions from then (receiptIdSinceMessages).

/** A receipt without its headers and body: what the live views poll every second. */
export type TReceiptSummary = Omit<TReceipt, 'headers' | 'body' | 'bodyGone'> & { bodyGone?: TReceipt['bodyGone'] };

const summaryColumns = (firstId: SQL) => ({
  id: receipts.id,
  receiverId: receipts.receiverId,
  method: receipts.method,
  path: receipts.path,
  query: receipts.query,
  bodySize: receipts.bodySize,
  oversize: receipts.oversize,
  sourceIp: receipts.sourceIp,
  receivedAt: receipts.receivedAt,
  messageId: receipts.messageId,
  verdict: receipts.verdict,
  verdictReason: receipts.verdictReason,
  duplicate: isDuplicateFrom(firstId),
  responseStatus: receipts.responseStatus,
  host: receipts.host,
  bodyPurgedAt: receipts.bodyPurgedAt,
  erasedAt: receipts.erasedAt,
  bodySha256: receipts.bodySha256,
});

type TSummaryRow = Omit<TReceiptSummary, 'verdict' | 'bodyGone'> & {
  verdict: string;
  bodyPurgedAt: Date | null;
  erasedAt: Date | null;
  bodySha256: string | null;
};

/** A summary row as the views take it: the verdict typed, a purged or erased body said once. */
const toSummary =
  (retentionMs: number) =>
  ({ bodyPurgedAt, erasedAt, bodySha256, ...row }: TSummaryRow): TReceiptSummary => {
    const bodyGone = receiptBodyGone({ bodyPurgedAt, erasedAt, bodySha256 }, retentionMs);
    return { ...row, verdict: row.verdict as TSignatureVerdict, ...(bodyGone ? { bodyGone } : {}) };
  };

export const receiptKey = (messageId: string, receiverId: string) => `${messageId}\n${receiverId}`;

/**
 * Receipt summaries of these messages at these receivers, oldest first, keyed by receiptKey(message,
 * receiver). `asOf`: only those stored by then — the moment before the caller read the API, so a
 * receipt is never joined with a message state older than itself (a first attempt that arrived
 * after the message list was read would otherwise look like a duplicate).
 */
export async function receiptSummariesAt(messageIds: string[], receiverIds: string[], asOf?: Date): Promise<Map<string, TReceiptSummary[]>> {
  const ids = [...new Set(messageIds.filter(Boolean))];
  const at = [...new Set(receiverIds.filter(Boolean))];
  if (!ids.length || !at.length) return new Map();
  const rows = await driverRows<TSummaryRow>(SUMMARIES_SQL, [ids, at, asOf ?? null, await receiptIdSinceMessages(ids)]);
  return keyByMessageAndReceiver(rows.map(toSummary((await consoleRetention()).RECEIPT_BODY_RETENTION)));
}

// The summaries' statement, rendered once from the schema and sent as text with four parameters
// (message ids, receiver ids, asOf, the first receipt id of their time): a timeline page and every batch of an export run it, and
// drizzle's building and mapping of its rows cost more than the database's answer. The driver
// gives the timestamps as Dates; the id, a bigserial, is read as a number.
const SUMMARIES_SQL = new PgDialect({ casing: 'snake_case' }).sqlToQuery(sql`
  select ${sql.join(
    Object.entries(summaryColumns(sql.raw('$4::bigint'))).map(
      ([name, column]) => sql`${name === 'id' ? sql`${column}::float8` : column} as ${sql.identifier(name)}`,
    ),
    sql`, `,
  )}
  from ${receipts}
  where ${receipts.messageId} = any(${sql.raw('$1')}::text[]) and ${receipts.receiverId} = any(${sql.raw('$2')}::uuid[])
    and (${sql.raw('$3')}::timestamptz is null or ${receipts.receivedAt} <= ${sql.raw('$3')}::timestamptz) and ${receipts.id} >= ${sql.raw('$4')}::bigint
  order by ${receipts.id}`).sql;

/**
 * The least a reconciliation reads of each receipt (reconcile.ts): where it came to, its verdict and
 * answer, when (ms since the epoch). Keyed like receiptSummariesAt, oldest first. A day's
 * reconciliation reads ~300k of them: no Dates, no other columns, and no duplicate check in SQL
 * (`duplicate` is false: markDuplicates counts the acknowledged ones of each webhook itself).
 */
export type TReceiptMark = { receiverId: string; host: string; verdict: TSignatureVerdict; responseStatus: number; receivedAt: number; duplicate: boolean };

export async function receiptMarksAt(messageIds: string[], receiverIds: string[], since?: Date): Promise<Map<string, TReceiptMark[]>> {
  const out = new Map<string, TReceiptMark[]>();
  if (!messageIds.length || !receiverIds.length) return out;
  const firstId = since && !Number.isNaN(since.getTime()) ? await receiptIdSince(since) : 0;
  const rows = await driverRows<TReceiptMark & { messageId: string }>(MARKS_SQL, [messageIds, receiverIds, firstId]);
  for (const row of rows) {
    const key = receiptKey(row.messageId, row.receiverId);
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
}

const MARKS_SQL = `
  select message_id as "messageId", receiver_id as "receiverId", host, verdict, response_status as "responseStatus",
         (extract(epoch from received_at) * 1000)::float8 as "receivedAt", false as duplicate
  from console.receipts
  where message_id = any($1::text[]) and receiver_id = any($2::uuid[]) and id >= $3::bigint
  order by id`;

export function keyByMessageAndReceiver(rows: TReceiptSummary[]): Map<string, TReceiptSummary[]> {
  const out = new Map<string, TReceiptSummary[]>();
  for (const row of rows) {
    if (!row.messageId) continue;
    const key = receiptKey(row.messageId, row.receiverId);
    const list = out.get(key) ?? [];
    list.push(row);
    out.set(key, list);
  }
  return out;
}

/**
 * Message ids of the newest receipts whose body or headers contain `term` (any receiver): the
 * receiver's side of a search, which works whatever the service offers.
 */
export async function messageIdsMentioning(term: string, limit = 20): Promise<string[]> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const db = await getDb();
  const rows = await db
    .select({ messageId: receipts.messageId, id: receipts.id })
    .from(receipts)
    .where(
      and(
        isNotNull(receipts.messageId),
        // convert_from fails on bytes that are not UTF-8: body_utf8 (set at insert) guards it.
        sql`((case when ${receipts.bodyUtf8} and ${receipts.body} is not null then convert_from(${receipts.body}, 'UTF8') ilike ${pattern} end) or ${receipts.headers}::text ilike ${pattern})`,
      ),
    )
    .orderBy(...newestFirst(receipts.id))
    .limit(limit * 5);
  return [...new Set(rows.map((r) => r.messageId!))].slice(0, limit);
}

/** Every receipt of these messages at any receiver (for arrivals no webhook explains). */
export async function receiptSummariesOf(messageIds: string[], asOf?: Date): Promise<TReceiptSummary[]> {
  const ids = [...new Set(messageIds.filter(Boolean))];
  if (!ids.length) return [];
  const db = await getDb();
  const firstId = await receiptIdSinceMessages(ids);
  const rows = await db
    .select(summaryColumns(sql`${firstId}::bigint`))
    .from(receipts)
    .where(and(inArray(receipts.messageId, ids), gte(receipts.id, firstId), asOf ? lte(receipts.receivedAt, asOf) : undefined))
    .orderBy(asc(receipts.id));
  return rows.map(toSummary((await consoleRetention()).RECEIPT_BODY_RETENTION));
}

/**
 * Message ids with a receipt at these receivers in [since, until) whose signature failed or that
 * was answered with an error, newest first (over receipts_troubled_idx). `unfixed`: only those with
 * no verified 2xx arrival of the same message at the same receiver after it (a message re-sent once
 * the receiver was fixed is done).
 */
export async function troubledMessageIds(receiverIds: string[], since: Date, until: Date, limit = 200, { unfixed = false } = {}): Promise<string[]> {
  if (!receiverIds.length) return [];
  const db = await getDb();
  const rows = await db
    .select({ messageId: receipts.messageId, last: sql<Date>`max(${receipts.receivedAt})` })
    .from(receipts)
    .where(
      and(
        inArray(receipts.receiverId, receiverIds),
        isNotNull(receipts.messageId),
        gte(receipts.receivedAt, since),
        lt(receipts.receivedAt, until),
        gte(receipts.id, await receiptIdSince(since)), // only the window's partitions planned (receipt-partitions.ts)
        sql`(${receipts.verdict} <> 'valid' or ${receipts.responseStatus} not between 200 and 299)`,
        unfixed
          ? sql`not exists (select 1 from console.receipts g
                            where g.message_id = ${receipts.messageId} and g.receiver_id = ${receipts.receiverId} and g.id > ${receipts.id}
                              and g.verdict = 'valid' and g.response_status between 200 and 299)`
          : undefined,
      ),
    )
    .groupBy(receipts.messageId)
    .orderBy(sql`max(${receipts.receivedAt}) desc`, sql`${receipts.messageId} desc`)
    .limit(limit);
  return rows.map((r) => r.messageId!);
}
