import { driverRows } from '@/lib/db/query';
import { listPartitions } from '@/lib/db/partitions/list-partitions';
import { env } from '@/lib/env';
import { ttlCache } from '@/lib/ttl-cache';
import { retentionOverrides } from './account-retention';
import { ATTEMPTS_TABLE, attemptPartitionHolds, attemptRules, type TPartitionHold } from './drop-attempts';

// The service's partitioned tables as the retention page and /metrics show them: per table its partitions (how many,
// the oldest's start and the newest's end, their total size), the next drop (which partition, and when its range is
// past MESSAGE_RETENTION: the service's next pass after that drops it) and the partitions past it that are kept, why
// and until when (drop-attempts.ts). Null when the table is not in this store (a console whose service is remote).
// The holds are read for a minute at most: a partition an account keeps longer may be large, and the page, the API and
// each scrape of /metrics ask; what they say changes with the purge's passes, minutes apart.

export type TPartitionStatus = {
  table: string;
  count: number;
  /** The oldest partition's start; null: from MINVALUE (an upgraded store's first partition). */
  oldestFrom: string | null;
  newestTo: string | null;
  bytes: number;
  retention: number;
  nextDrop: { partition: string; at: string } | null;
  held: (Omit<TPartitionHold, 'until'> & { until: string | null })[];
};

const holdsCache = ttlCache<string, TPartitionHold[]>('attempt-partition-holds', { ttlMs: 60_000, maxEntries: 1 });

/** service.attempts' partitions, their next drop and what is kept past its time. */
export async function attemptPartitionStatus(): Promise<TPartitionStatus | null> {
  const [{ t }] = await driverRows<{ t: string | null }>(`select to_regclass($1)::text as t`, [ATTEMPTS_TABLE]);
  if (t === null) return null;
  const parts = (await listPartitions(ATTEMPTS_TABLE)).filter((p) => !p.detachPending);
  const rowsMs = env.MESSAGE_RETENTION;
  const names = new Set(parts.map((p) => p.name));
  const cached = await holdsCache.get('attempts', async () => attemptPartitionHolds(await attemptRules(rowsMs, await retentionOverrides()), parts));
  const holds = cached.filter((h) => names.has(h.partition)); // one dropped since the read is gone
  const heldNames = new Set(holds.map((h) => h.partition));
  const next = parts.find((p) => p.to !== null && !heldNames.has(p.name));
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    table: ATTEMPTS_TABLE,
    count: parts.length,
    oldestFrom: iso(parts[0]?.from),
    newestTo: iso(parts.at(-1)?.to),
    bytes: parts.reduce((n, p) => n + p.bytes, 0),
    retention: rowsMs,
    nextDrop: next?.to ? { partition: next.name, at: new Date(next.to.getTime() + rowsMs).toISOString() } : null,
    held: holds.map((h) => ({ ...h, until: iso(h.until) })),
  };
}
