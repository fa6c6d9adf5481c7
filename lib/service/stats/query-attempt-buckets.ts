import { queryRows, sql, type DbOrTx } from '@/lib/db/client';
import type { TPercentiles } from './schemas';

// A webhook's attempts in a window, counted per bucket and in total by one grouped query over the
// attempts_webhook_time_idx index (one index range scan per bucket; no row leaves the database).

export type TBucketRow = TPercentiles & { startMs: number | null; attempts: number; successes: number };

type TRaw = { start_ms: number | string | null; attempts: number; successes: number; p: (number | string | null)[] | string | null };

const num = (v: number | string | null | undefined): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

/** Postgres float8[] from either driver: an array, or its text form `{1,2.5,NULL}`. */
function floats(p: TRaw['p']): (number | null)[] {
  if (p === null) return [null, null, null];
  const items = Array.isArray(p) ? p : p.replace(/^\{|\}$/g, '').split(',').map((s) => (s === 'NULL' ? null : s));
  return items.map((v) => num(v));
}

/**
 * One row per bucket (oldest first; `startMs` set), then the window's total (`startMs` null).
 * Buckets start at `firstBucket` and step by `bucketSeconds` up to `until`; only attempts in
 * [from, until] count, so the buckets' sums are the total.
 */
export async function queryAttemptBuckets(
  db: DbOrTx,
  webhookId: string,
  { from, until, firstBucket, bucketSeconds }: { from: Date; until: Date; firstBucket: Date; bucketSeconds: number },
): Promise<TBucketRow[]> {
  const step = sql`${bucketSeconds}::int * interval '1 second'`;
  const rows = await queryRows<TRaw>(
    db,
    sql`select extract(epoch from b.start) * 1000 as start_ms,
               count(a.status)::int as attempts,
               (count(*) filter (where a.status = 'success'))::int as successes,
               percentile_cont(array[0.5, 0.95, 0.99]) within group (order by a.response_duration_ms) as p
          from generate_series(${firstBucket.toISOString()}::timestamptz, ${until.toISOString()}::timestamptz, ${step}) as b(start)
          left join service.attempts a
            on a.webhook_id = ${webhookId}
           and a.created_at >= greatest(b.start, ${from.toISOString()}::timestamptz)
           and a.created_at < b.start + ${step}
           and a.created_at <= ${until.toISOString()}::timestamptz
         group by grouping sets ((b.start), ())
         order by b.start nulls last`,
  );
  return rows.map((r) => {
    const [p50, p95, p99] = floats(r.p);
    return { startMs: r.start_ms === null ? null : Number(r.start_ms), attempts: r.attempts, successes: r.successes, p50, p95, p99 };
  });
}
