import { driverRows } from '@/lib/db/query';
import { listPartitions, type TPartition } from '@/lib/db/partitions/list-partitions';
import { env } from '@/lib/env';
import { ttlCache } from '@/lib/ttl-cache';
import { retentionOverrides } from './account-retention';
import { ATTEMPTS_TABLE, attemptPartitionHolds, attemptRules, type TPartitionHold } from './drop-attempts';
import { DELIVERIES_TABLE, deliveryPartitionHolds } from './drop-deliveries';
import { MESSAGES_TABLE, messagePartitionHolds } from './drop-messages';

// The service's partitioned tables as the retention page and /metrics show them: per table its partitions (how many,
// the oldest's start and the newest's end, their total size), the next drop (which partition, and when its range is
// past MESSAGE_RETENTION: the service's next pass after that drops it) and the partitions past it that are kept, why
// and until when (drop-attempts.ts, drop-deliveries.ts, drop-messages.ts). Null when the table is not in this store (a console whose service is remote).
// The holds are read for a minute at most: a partition an account keeps longer may be large, and the page, the API and
// each scrape of /metrics ask; what they say changes with the purge's passes, minutes apart. The API answers an account:
// which partitions are kept and until when are the deployment's, but what each holds is counted in that account's own
// messages (0 and 0: it is kept for other accounts'), so no client learns another's volume.

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

const holdsCache = ttlCache<string, TPartitionHold[]>('service-partition-holds', { ttlMs: 60_000, maxEntries: 2 });
const ownHoldsCache = ttlCache<string, TPartitionHold[]>('service-partition-own-holds', { ttlMs: 60_000, maxEntries: 200 });

type THolds = (rules: Awaited<ReturnType<typeof attemptRules>>, parts: TPartition[], accountId?: string | null) => Promise<TPartitionHold[]>;

/** `table`'s partitions, their next drop and what is kept past its time (`holds`: why each is kept; `accountId`: counted in its rows). */
async function partitionStatus(table: string, holds: THolds, accountId?: string): Promise<TPartitionStatus | null> {
  const [{ t }] = await driverRows<{ t: string | null }>(`select to_regclass($1)::text as t`, [table]);
  if (t === null) return null;
  const parts = (await listPartitions(table)).filter((p) => !p.detachPending);
  if (parts.length === 0) return null; // a table not partitioned (yet): a store before its migration
  const rowsMs = env.MESSAGE_RETENTION;
  const names = new Set(parts.map((p) => p.name));
  const rules = async () => attemptRules(rowsMs, await retentionOverrides());
  const cached = await holdsCache.get(table, async () => holds(await rules(), parts));
  const held = cached.filter((h) => names.has(h.partition)); // one dropped since the read is gone
  if (accountId !== undefined && held.length) {
    const own = await ownHoldsCache.get(`${table} ${accountId}`, async () => holds(await rules(), parts, accountId));
    held.forEach((h, i) => {
      const mine = own.find((o) => o.partition === h.partition);
      held[i] = { ...h, pending: mine?.pending ?? 0, accountKept: mine?.accountKept ?? 0 };
    });
  }
  const heldNames = new Set(held.map((h) => h.partition));
  const next = parts.find((p) => p.to !== null && !heldNames.has(p.name));
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    table,
    count: parts.length,
    oldestFrom: iso(parts[0]?.from),
    newestTo: iso(parts.at(-1)?.to),
    bytes: parts.reduce((n, p) => n + p.bytes, 0),
    retention: rowsMs,
    nextDrop: next?.to ? { partition: next.name, at: new Date(next.to.getTime() + rowsMs).toISOString() } : null,
    held: held.map((h) => ({ ...h, until: iso(h.until) })),
  };
}

/** service.attempts' partitions, their next drop and what is kept past its time. */
export const attemptPartitionStatus = (accountId?: string) => partitionStatus(ATTEMPTS_TABLE, attemptPartitionHolds, accountId);

/** service.deliveries' (migration 0039), the same. */
export const deliveryPartitionStatus = (accountId?: string) => partitionStatus(DELIVERIES_TABLE, deliveryPartitionHolds, accountId);

/** service.messages' (migration 0040), the same. */
export const messagePartitionStatus = (accountId?: string) => partitionStatus(MESSAGES_TABLE, messagePartitionHolds, accountId);

/** The service's partitioned tables, as the retention page, the API (`accountId`: what is held counted in its rows) and /metrics show them. */
export async function servicePartitionStatuses(accountId?: string): Promise<TPartitionStatus[]> {
  const all = await Promise.all([attemptPartitionStatus(accountId), deliveryPartitionStatus(accountId), messagePartitionStatus(accountId)]);
  return all.filter((s): s is TPartitionStatus => s !== null);
}
