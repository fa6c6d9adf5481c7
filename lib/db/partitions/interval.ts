import { env } from '@/lib/env';

// A partitioned table's interval and its boundaries, in UTC (a platform's day has no one zone; UTC
// bounds are what the database compares with timestamptz, whatever the session's zone).
//   day    PostgreSQL's default: a retention of days drops whole days, a partition of a busy day
//          stays a size one DETACH CONCURRENTLY and DROP handle in well under a second, and a
//          window read of 24 h or 7 d plans 2 or 8 partitions.
//   week   the embedded store's default: PGlite is one process in WebAssembly's memory, where each
//          partition is files, catalog rows and relcache entries for every table of the group and its
//          indexes; a year of days would be 365 × 4 tables with their indexes opened by reads that do
//          not prune. A week is 52 a year, and rows leave at most a week after their retention.
//   month  for a store whose retention is counted in years.
// Monday starts a week (ISO 8601), the 1st a month.

export type TPartitionInterval = 'day' | 'week' | 'month';

const DAY = 86_400_000;

/** The interval in effect: PARTITION_INTERVAL, else the store's default. */
export function partitionInterval(kind: 'pglite' | 'postgres'): TPartitionInterval {
  return env.PARTITION_INTERVAL ?? (kind === 'postgres' ? 'day' : 'week');
}

/** The start of the interval `at` falls in. */
export function intervalStart(at: Date, interval: TPartitionInterval): Date {
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  if (interval === 'month') return new Date(Date.UTC(y, m, 1));
  const day = Date.UTC(y, m, d);
  return new Date(interval === 'day' ? day : day - ((at.getUTCDay() + 6) % 7) * DAY);
}

/** The first boundary after `at`. */
export function nextBoundary(at: Date, interval: TPartitionInterval): Date {
  const start = intervalStart(at, interval);
  if (interval === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(start.getTime() + (interval === 'day' ? DAY : 7 * DAY));
}

/** How far ahead partitions are made: a week, and at least to the end of the next interval. */
export function aheadUntil(now: Date, interval: TPartitionInterval): Date {
  return new Date(Math.max(now.getTime() + 7 * DAY, nextBoundary(nextBoundary(now, interval), interval).getTime()));
}

/** A partition's name: its table's and the day it starts (`attempts_p20261129`). */
export function partitionName(table: string, from: Date): string {
  return `${table}_p${from.toISOString().slice(0, 10).replaceAll('-', '')}`;
}
