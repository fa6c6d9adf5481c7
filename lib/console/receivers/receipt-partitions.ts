import { dbKind } from '@/lib/db/client';
import { ensureIdPartitions, firstIdSince, listIdSpans, type TIdPartitioned } from '@/lib/db/partitions/id-slots';
import { partitionInterval } from '@/lib/db/partitions/interval';
import type { TLease } from '@/lib/db/take-lease';
import { idsSince } from '@/lib/ids';
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
