import { dbKind } from '@/lib/db/client';
import { ensureIdPartitions, firstIdSince, listIdSpans, type TIdPartitioned } from '@/lib/db/partitions/id-slots';
import { partitionInterval } from '@/lib/db/partitions/interval';
import type { TLease } from '@/lib/db/take-lease';
import { BASE62, FIRST_ID_AT, ID_CLOCK_SLACK_MS, idsSince, KSUID_EPOCH_S } from '@/lib/ids';
import { ttlCache } from '@/lib/ttl-cache';

// console.receipts' partitions (by range of id, one interval of arrival each: migration 0038,
// lib/db/partitions/id-slots.ts): the upkeep that opens the next at each interval's start, and the
// first id a window read needs, so that it plans only the partitions of its window.

export const RECEIPT_PARTITIONS_LEASE: TLease = { table: 'console.leases', name: 'partitions-receipts' };

export async function receiptPartitioned(): Promise<TIdPartitioned> {
  return {
    table: 'console.receipts',
    spans: 'console.receipt_partitions',
    sequence: 'console.receipts_id_seq',
    interval: partitionInterval(await dbKind()),
    lease: RECEIPT_PARTITIONS_LEASE,
  };
}

/** Opens the interval's partition and makes the next (the console's upkeep, and each start). */
export async function ensureReceiptPartitions(now = new Date()): Promise<string[] | null> {
  const made = await ensureIdPartitions(await receiptPartitioned(), now);
  spans.clear();
  return made;
}

// The spans, read at most once a minute per process. What another process changed meanwhile only
// widens a read: a slot closed since is still read as open, and one opened since holds larger ids.
const spans = ttlCache<'all', Awaited<ReturnType<typeof listIdSpans>>>('receipt-partition-spans', { ttlMs: 60_000, maxEntries: 1 });

/**
 * The first receipt id a read of the arrivals at or after `from` needs (0: from the first partition). A window read adds
 * `id >= this` beside its `received_at >= from`: the database then plans only the partitions of the window.
 */
export async function receiptIdSince(from: Date): Promise<number> {
  return firstIdSince(await spans.get('all', () => listIdSpans({ table: 'console.receipts', spans: 'console.receipt_partitions' })), from);
}

/**
 * The first receipt id a read of these messages' receipts needs: their receipts arrived after the oldest was made (its
 * KSUID's second, less the clock slack: lib/ids.ts), so only the partitions from then are planned. 0 (all of them) when
 * one of the ids is not a KSUID.
 */
export async function receiptIdSinceMessages(messageIds: readonly string[]): Promise<number> {
  const since = idsSince(messageIds);
  return since ? receiptIdSince(since) : 0;
}

/**
 * SQL for the second the message whose id is in `column` was made, less one (its KSUID's first 6 base62 digits: the other
 * 21 add less than 0.13 s), or null for an id that is no KSUID or names a second before the app or after now and the slack
 * (as idWindow). For a look per row for other arrivals of the row's message: receiptIdAtSql of it, taken once per row
 * (a LATERAL … OFFSET 0 beside the row, so the search by halves compares a value rather than computing it again).
 */
export function messageSecondSql(column: string): string {
  const digit = (k: number) => `(strpos('${BASE62}', substr(${column}, strpos(${column}, '_') + ${k}, 1)) - 1)::float8`;
  let top = digit(1);
  for (let k = 2; k <= 6; k++) top = `(${top} * 62 + ${digit(k)})`;
  const second = `(${KSUID_EPOCH_S} + ${top} * ${62 ** 21 / 2 ** 128} - 1)`;
  return `case when ${column} ~ '^[^_]*_[0-9A-Za-z]{27}$' and ${second} between ${FIRST_ID_AT / 1000} and ${(Date.now() + ID_CLOCK_SLACK_MS) / 1000} then ${second} end`;
}

/**
 * SQL for the first receipt id a look for the receipts of a message made at `second` (messageSecondSql, of the outer
 * row: a constant for the look, which the database then prunes per row to the partitions from then) needs: the spans
 * searched by halves, as firstIdSince with the slack; 0 (every partition) when `second` is null.
 */
export async function receiptIdAtSql(second: string): Promise<string> {
  const all = await spans.get('all', () => listIdSpans({ table: 'console.receipts', spans: 'console.receipt_partitions' }));
  // Index k of the first span not closed before the message's time less the slack (all.length: none).
  const open = all.findIndex((s) => s.closedAt === null);
  const by = (lo: number, hi: number): string => {
    if (lo === hi) return String(lo === 0 || lo >= all.length ? 0 : all[lo].firstId);
    const mid = Math.floor((lo + hi) / 2);
    return `case when ${second} <= ${(all[mid].closedAt!.getTime() + ID_CLOCK_SLACK_MS) / 1000} then ${by(lo, mid)} else ${by(mid + 1, hi)} end`;
  };
  return `case when ${second} is null then 0 else ${by(0, open < 0 ? all.length : open)} end`;
}
