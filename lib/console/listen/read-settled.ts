import 'server-only';
import { driverRows } from '@/lib/db/query';
import type { TReceiptInput } from '@/lib/console/ingest/record-receipt';

// A receiver's receipts in the order a stream sends them, and only those that can no longer be
// preceded. Receipt ids come from a sequence, and several batches commit side by side (group commit
// on PostgreSQL, other processes): id 11 may be visible while id 10 is still to commit, so "id > the
// cursor" could skip 10 for ever. Each receipt records the transaction that stored it (tx, migration
// 0017), and a stream reads in (tx, id) order only rows whose transaction is older than every one
// still running here (HORIZON below): any receipt committed later has a larger tx. A visible row past
// that horizon is held back (`held`) until the transactions before it end. Rows stored before 0017
// have tx 0 and come first, by id.

/** Where a stream stands: the last (tx, id) sent; `minId` skips ids at or below a receipt that is gone. */
export type TStreamCursor = { tx: string; id: number; minId: number };

/** A receipt as stored (its request fields as ingest recorded them), with its place in the stream. */
export type TStreamReceipt = Pick<
  TReceiptInput,
  'method' | 'path' | 'query' | 'headers' | 'body' | 'bodySize' | 'oversize' | 'messageId' | 'responseStatus'
> & {
  id: number;
  tx: string;
  receivedAt: Date;
  verdict: string;
  verdictReason: string;
  /** Set when the body is gone: a donor erasure removed it, or retention purged it (and when). */
  bodyGone: { reason: 'erased' | 'purged'; at: Date } | null;
};

type TRow = {
  id: number | string;
  tx: string;
  method: string;
  path: string;
  query: string;
  headers: [string, string][] | string;
  body: Uint8Array | null;
  body_size: number;
  oversize: boolean;
  received_at: Date | string;
  message_id: string | null;
  verdict: string;
  verdict_reason: string;
  response_status: number;
  erased_at: Date | string | null;
  body_purged_at: Date | string | null;
  settled: boolean;
};

/**
 * The horizon: the oldest transaction still running (of the statement's snapshot) that could store a
 * receipt. A snapshot lists the running transactions of every database on the server; one seen in
 * pg_stat_activity working in another database cannot write here, so it does not hold the stream
 * back (a long write next door — another app's database on the same server, a migration — would
 * otherwise stall every stream for as long as it runs). An id's database never changes, so one that
 * ends before it is looked up only keeps the horizon where it was (safe); a session of another role
 * shows no backend_xid and counts, as before. Nothing running: the snapshot's xmax.
 */
const HORIZON = `(select coalesce(
    (select min(x) from pg_snapshot_xip(pg_current_snapshot()) x
      where (x::text::bigint % 4294967296) not in (
        select backend_xid::text::bigint from pg_stat_activity where datname is distinct from current_database() and backend_xid is not null)),
    pg_snapshot_xmax(pg_current_snapshot())))`;
const PAGE = `
  with horizon as (select ${HORIZON} as h)
  select id, tx::text as tx, method, path, query, headers, body, body_size, oversize, received_at, message_id, verdict,
         verdict_reason, response_status, erased_at, body_purged_at, tx < (select h from horizon) as settled
  from console.receipts
  where receiver_id = $1 and (tx, id) > ($2::xid8, $3::bigint) and id > $4
  order by tx, id
  limit $5`;

/** The next settled receipts after `cursor` (at most `limit`), and whether a later one is visible but held back. */
export async function readSettled(receiverId: string, cursor: TStreamCursor, limit: number): Promise<{ receipts: TStreamReceipt[]; held: boolean }> {
  const rows = await driverRows<TRow>(PAGE, [receiverId, cursor.tx, cursor.id, cursor.minId, limit]);
  const receipts: TStreamReceipt[] = [];
  for (const r of rows) {
    if (!r.settled) return { receipts, held: true };
    receipts.push({
      id: Number(r.id),
      tx: r.tx,
      method: r.method,
      path: r.path,
      query: r.query,
      headers: typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers,
      body: r.body ? Buffer.from(r.body) : null,
      bodySize: r.body_size,
      oversize: r.oversize,
      receivedAt: new Date(r.received_at),
      messageId: r.message_id,
      verdict: r.verdict,
      verdictReason: r.verdict_reason,
      responseStatus: r.response_status,
      bodyGone: r.erased_at ? { reason: 'erased', at: new Date(r.erased_at) } : r.body_purged_at ? { reason: 'purged', at: new Date(r.body_purged_at) } : null,
    });
  }
  return { receipts, held: false };
}

/**
 * The cursor a stream starts from. `after` a receipt id: just past that receipt of this receiver (0:
 * from the first; one that is gone, e.g. purged: every receipt with a larger id). No `after`: now,
 * past the newest receipt visible at this moment — settled or not (one whose transaction the horizon
 * has not passed yet, behind a long transaction elsewhere, is already there and not "new"): `minId`
 * skips every id up to it, so only what commits from here on is sent. The ready event names it.
 */
export async function startCursor(receiverId: string, after: number | null): Promise<TStreamCursor> {
  if (after === 0) return { tx: '0', id: 0, minId: 0 };
  if (after !== null) {
    const [row] = await driverRows<{ tx: string }>('select tx::text as tx from console.receipts where receiver_id = $1 and id = $2', [receiverId, after]);
    return row ? { tx: row.tx, id: after, minId: 0 } : { tx: '0', id: 0, minId: after };
  }
  const [now] = await driverRows<{ tx: string | null; id: number | string | null; newest: number | string | null }>(
    `select s.tx::text as tx, s.id, (select max(id) from console.receipts where receiver_id = $1) as newest
       from (select 1) one
       left join lateral (select tx, id from console.receipts where receiver_id = $1 and tx < ${HORIZON} order by tx desc, id desc limit 1) s on true`,
    [receiverId],
  );
  const newest = now?.newest === null || now?.newest === undefined ? 0 : Number(now.newest);
  return now?.tx ? { tx: now.tx, id: Number(now.id), minId: newest } : { tx: '0', id: 0, minId: newest };
}
