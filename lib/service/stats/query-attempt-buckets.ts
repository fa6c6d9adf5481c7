import { type DbOrTx } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { emptyCounts, percentilesOf } from './latency-buckets';
import type { TPercentiles } from './schemas';

// A webhook's attempts in a window, per bucket of time and per latency bucket, read from the
// attempts themselves (over attempts_webhook_time_idx): what the stats use until the rollups hold
// every attempt of the webhook (query-rollup-buckets.ts reads the same rows from them). Both are
// assembled here, so the two give the same figures. The window's both bounds are constants beside the buckets' (which
// come from generate_series), so the planner reads only the partitions of service.attempts that overlap the window.

export type TBucketRow = TPercentiles & { startMs: number | null; attempts: number; successes: number };

/** Attempts and successes of one webhook in one bucket of time, with their counts per latency bucket (the index is the bucket). */
export type TCountRow = { webhook_id: string; start_ms: number | string; attempts: number; successes: number; latency: readonly number[] };

export type TBucketWindow = { until: Date; firstBucket: Date; bucketSeconds: number };

/** One webhook's counts from its attempts in [firstBucket, until]. */
export async function queryAttemptCounts(db: DbOrTx, webhookId: string, { until, firstBucket, bucketSeconds }: TBucketWindow): Promise<TCountRow[]> {
  const step = sql`${bucketSeconds}::int * interval '1 second'`;
  const rows = await queryRows<{ webhook_id: string; start_ms: number | string; latency_bucket: number; attempts: number; successes: number }>(
    db,
    sql`select a.webhook_id, extract(epoch from b.start) * 1000 as start_ms,
               service.latency_bucket(a.response_duration_ms) as latency_bucket,
               count(*)::int as attempts, (count(*) filter (where a.status = 'success'))::int as successes
          from generate_series(${firstBucket.toISOString()}::timestamptz, ${until.toISOString()}::timestamptz, ${step}) as b(start)
          join service.attempts a
            on a.webhook_id = ${webhookId}
           and a.created_at >= b.start
           and a.created_at < b.start + ${step}
           and a.created_at >= ${firstBucket.toISOString()}::timestamptz
           and a.created_at <= ${until.toISOString()}::timestamptz
         group by 1, 2, 3`,
  );
  return rows.map((r) => {
    const latency = emptyCounts();
    latency[r.latency_bucket] = r.attempts;
    return { webhook_id: r.webhook_id, start_ms: r.start_ms, attempts: r.attempts, successes: r.successes, latency };
  });
}

/**
 * Per webhook: one row per bucket from `firstBucket` (a multiple of `bucketSeconds`) to `until`,
 * oldest first, then the window's total (`startMs` null); percentiles from the latency buckets.
 */
export function assembleBuckets(webhookIds: string[], rows: TCountRow[], { until, firstBucket, bucketSeconds }: TBucketWindow): Map<string, TBucketRow[]> {
  const bucketMs = bucketSeconds * 1000;
  const starts: number[] = [];
  for (let t = firstBucket.getTime(); t <= until.getTime(); t += bucketMs) starts.push(t);
  // The rows grouped by webhook once: an account's 20 webhooks × a dense day's rollups (~4k rows)
  // were read 20 times over otherwise.
  const rowsOf = new Map<string, TCountRow[]>();
  for (const r of rows) {
    const list = rowsOf.get(r.webhook_id);
    if (list) list.push(r);
    else rowsOf.set(r.webhook_id, [r]);
  }
  const out = new Map<string, TBucketRow[]>();
  for (const webhookId of webhookIds) {
    const per = new Map(starts.map((t) => [t, { attempts: 0, successes: 0, counts: emptyCounts() }]));
    const total = { attempts: 0, successes: 0, counts: emptyCounts() };
    for (const r of rowsOf.get(webhookId) ?? []) {
      const b = per.get(Math.round(Number(r.start_ms)));
      if (!b) continue;
      for (const acc of [b, total]) {
        acc.attempts += r.attempts;
        acc.successes += r.successes;
        for (let k = 0; k < r.latency.length; k++) acc.counts[k] += r.latency[k];
      }
    }
    const row = (startMs: number | null, acc: typeof total): TBucketRow => ({
      startMs,
      attempts: acc.attempts,
      successes: acc.successes,
      ...percentilesOf(acc.counts),
    });
    out.set(webhookId, [...starts.map((t) => row(t, per.get(t)!)), row(null, total)]);
  }
  return out;
}
