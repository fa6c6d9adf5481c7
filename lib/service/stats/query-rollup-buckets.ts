import { queryRows, sql, type DbOrTx } from '@/lib/db/client';
import type { TBucketWindow, TCountRow } from './query-attempt-buckets';

// Webhooks' attempts per bucket from service.attempt_rollups (kept when attempts are inserted): one
// primary-key range per webhook, a few rows per bucket whatever the volume.

const idList = (ids: string[]) => sql`(${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;

/** Whether every attempt of these webhooks is in the rollups (none still waits for the backfill). */
export async function rollupsComplete(db: DbOrTx, webhookIds: string[]): Promise<boolean> {
  if (webhookIds.length === 0) return true;
  const rows = await queryRows<{ one: number }>(db, sql`select 1 as one from service.attempts where not rolled_up and webhook_id in ${idList(webhookIds)} limit 1`);
  return rows.length === 0;
}

/**
 * These webhooks' counts in [firstBucket, until], whole buckets, from the rollups of the window's
 * bucket size. A bucket's latency rows come as one row (their buckets and counts as arrays): a
 * busy day is 24 hours × ~6 latency buckets × every webhook, and each row has a cost of its own
 * (on the embedded store most of all), so a dense day read ~2× a sparse one before.
 */
export async function queryRollupCounts(db: DbOrTx, webhookIds: string[], { until, firstBucket, bucketSeconds }: TBucketWindow): Promise<TCountRow[]> {
  if (webhookIds.length === 0) return [];
  const rows = await queryRows<{ webhook_id: string; start_ms: number | string; latency_buckets: number[]; attempts: number[]; successes: number }>(
    db,
    sql`select webhook_id, extract(epoch from bucket_start) * 1000 as start_ms,
               array_agg(latency_bucket) as latency_buckets, array_agg(attempts) as attempts, sum(successes)::int as successes
          from service.attempt_rollups
         where webhook_id in ${idList(webhookIds)} and bucket_seconds = ${bucketSeconds}
           and bucket_start >= ${firstBucket.toISOString()}::timestamptz and bucket_start <= ${until.toISOString()}::timestamptz
         group by webhook_id, bucket_start`,
  );
  // Back to a row per latency bucket, as the raw attempts' reading gives them; the bucket's successes on its first.
  return rows.flatMap((r) =>
    r.latency_buckets.map((latency_bucket, i) => ({ webhook_id: r.webhook_id, start_ms: r.start_ms, latency_bucket, attempts: r.attempts[i], successes: i === 0 ? r.successes : 0 })),
  );
}
