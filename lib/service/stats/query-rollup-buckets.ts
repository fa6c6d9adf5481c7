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

/** These webhooks' counts in [firstBucket, until], whole buckets, from the rollups of the window's bucket size. */
export async function queryRollupCounts(db: DbOrTx, webhookIds: string[], { until, firstBucket, bucketSeconds }: TBucketWindow): Promise<TCountRow[]> {
  if (webhookIds.length === 0) return [];
  return queryRows<TCountRow>(
    db,
    sql`select webhook_id, extract(epoch from bucket_start) * 1000 as start_ms, latency_bucket, attempts, successes
          from service.attempt_rollups
         where webhook_id in ${idList(webhookIds)} and bucket_seconds = ${bucketSeconds}
           and bucket_start >= ${firstBucket.toISOString()}::timestamptz and bucket_start <= ${until.toISOString()}::timestamptz`,
  );
}
