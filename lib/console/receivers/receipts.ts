import { and, asc, eq, getTableColumns, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { newestFirst } from '@/lib/db/paging';
import { receipts } from '@/lib/db/schema/console';
import type { TSignatureVerdict } from '@/lib/constants';
import { receiptBodyGone } from '../retention/body-gone';
import { consoleRetention } from '../retention/retention-settings';
import { isDuplicateFrom } from '../ingest/receipt-duplicate';
import { receiptIdSinceMessages } from './receipt-partitions';
import { UUID } from './get-receiver';
import type { TReceipt } from './types';

// Reading back what a receiver stored: a receiver's log (newest first, keyset on the id, optional
// search in bodies and headers), one receipt, several receipts.

type TReceiptRow = typeof receipts.$inferSelect & { duplicate: boolean };
const RECEIPT_COLUMNS = getTableColumns(receipts);

/**
 * The rows with their duplicate flag, derived when read (receipt-duplicate.ts) in a second statement, once their messages
 * are known: the look for an earlier copy then reads only the partitions from the oldest message's time, not every one.
 */
async function withDuplicates(rows: (typeof receipts.$inferSelect)[]): Promise<TReceiptRow[]> {
  const of = rows.filter((r) => r.messageId);
  const duplicates = new Set<number>();
  if (of.length) {
    const firstId = await receiptIdSinceMessages(of.map((r) => r.messageId!));
    const db = await getDb();
    const found = await db
      .select({ id: receipts.id })
      .from(receipts)
      .where(
        and(
          inArray(
            receipts.id,
            of.map((r) => r.id),
          ),
          isDuplicateFrom(sql`${firstId}::bigint`),
        ),
      );
    for (const r of found) duplicates.add(r.id);
  }
  return rows.map((r) => ({ ...r, duplicate: duplicates.has(r.id) }));
}

const toReceipt =
  (retentionMs: number) =>
  (row: TReceiptRow): TReceipt => ({
    id: row.id,
    receiverId: row.receiverId,
    method: row.method,
    path: row.path,
    query: row.query,
    headers: row.headers as [string, string][],
    body: row.body,
    bodySize: row.bodySize,
    oversize: row.oversize,
    sourceIp: row.sourceIp,
    receivedAt: row.receivedAt,
    messageId: row.messageId,
    verdict: row.verdict as TSignatureVerdict,
    verdictReason: row.verdictReason,
    duplicate: row.duplicate,
    responseStatus: row.responseStatus,
    host: row.host,
    bodyGone: receiptBodyGone(row, retentionMs),
  });

const bodyRetention = async () => (await consoleRetention()).RECEIPT_BODY_RETENTION;

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A receiver's receipts, newest first, `limit` at a time; `before` is the last id of the previous
 * page. `q` searches the body (when it is text) and the headers, case-insensitively.
 */
export async function listReceipts(
  receiverId: string,
  { limit = 50, before, q }: { limit?: number; before?: number; q?: string } = {},
): Promise<{ receipts: TReceipt[]; nextBefore?: number }> {
  if (!UUID.test(receiverId)) return { receipts: [] };
  const size = Math.min(Math.max(Math.trunc(limit) || 50, 1), 200);
  const conditions: SQL[] = [eq(receipts.receiverId, receiverId)];
  if (before !== undefined && Number.isFinite(before)) conditions.push(lt(receipts.id, before));
  const term = q?.trim();
  if (term) {
    const pattern = likePattern(term);
    // convert_from fails on bytes that are not UTF-8: body_utf8 (set at insert) guards it.
    conditions.push(
      sql`((case when ${receipts.bodyUtf8} and ${receipts.body} is not null then convert_from(${receipts.body}, 'UTF8') ilike ${pattern} end) or ${receipts.headers}::text ilike ${pattern})`,
    );
  }
  const db = await getDb();
  const rows = await db
    .select(RECEIPT_COLUMNS)
    .from(receipts)
    .where(and(...conditions))
    .orderBy(...newestFirst(receipts.id))
    .limit(size + 1);
  const page = (await withDuplicates(rows.slice(0, size))).map(toReceipt(await bodyRetention()));
  return rows.length > size ? { receipts: page, nextBefore: page[page.length - 1].id } : { receipts: page };
}

export async function getReceipt(id: number): Promise<TReceipt | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const db = await getDb();
  const [row] = await db.select(RECEIPT_COLUMNS).from(receipts).where(eq(receipts.id, id)).limit(1);
  return row ? toReceipt(await bodyRetention())((await withDuplicates([row]))[0]) : null;
}

/** These receipts in full (headers and bodies), oldest first. */
export async function getReceipts(ids: number[]): Promise<TReceipt[]> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!wanted.length) return [];
  const db = await getDb();
  const rows = await db.select(RECEIPT_COLUMNS).from(receipts).where(inArray(receipts.id, wanted)).orderBy(asc(receipts.id));
  return (await withDuplicates(rows)).map(toReceipt(await bodyRetention()));
}
