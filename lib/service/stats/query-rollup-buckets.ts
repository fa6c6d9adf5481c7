import { type DbOrTx } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import type { TBucketWindow, TCountRow } from './query-attempt-buckets';
import { parseCounts } from './latency-buckets';

// Webhooks' attempts per bucket from service.attempt_histograms (kept when attempts are inserted):
// one primary-key range per webhook, one row per bucket whatever the volume.

// Once no attempt at all waits for the backfill, none ever will (every attempt stored since migration 0012 is rolled up
// by its insert): the process stops asking, in a statement that plans every attempts partition (a year of days).
let everyAttemptRolledUp = false;

/** Whether every attempt of these webhooks is in the rollups (none still waits for the backfill). */
export async function rollupsComplete(db: DbOrTx, webhookIds: string[]): Promise<boolean> {
  if (everyAttemptRolledUp || webhookIds.length === 0) return true;
  const [row] = await queryRows<{ theirs: boolean; any: boolean }>(
    db,
    sql`select exists (select 1 from service.attempts where not rolled_up and webhook_id = any(${sqlArray(webhookIds, 'text')})) as theirs,
               exists (select 1 from service.attempts where not rolled_up) as any`,
  );
  if (!row.any) everyAttemptRolledUp = true;
  return !row.theirs;
}

/**
 * These webhooks' counts in [firstBucket, until], whole buckets, from the histograms of the window's
 * bucket size: one row per webhook and bucket, whatever the spread of its response times (a row per
 * latency bucket before migration 0021: a busy day read ~5× the rows of a quiet one, and each row
 * has a cost of its own, on the embedded store most of all).
 */
export async function queryRollupCounts(db: DbOrTx, webhookIds: string[], { until, firstBucket, bucketSeconds }: TBucketWindow): Promise<TCountRow[]> {
  if (webhookIds.length === 0) return [];
  const rows = await queryRows<{ webhook_id: string; start_ms: number | string; attempts: number; successes: number; latency: string }>(
    db,
    sql`select webhook_id, extract(epoch from bucket_start) * 1000 as start_ms, attempts, successes, latency::text as latency
          from service.attempt_histograms
         where webhook_id = any(${sqlArray(webhookIds, 'text')}) and bucket_seconds = ${bucketSeconds}
           and bucket_start >= ${firstBucket.toISOString()}::timestamptz and bucket_start <= ${until.toISOString()}::timestamptz`,
  );
  return rows.map((r) => ({ webhook_id: r.webhook_id, start_ms: r.start_ms, attempts: r.attempts, successes: r.successes, latency: parseCounts(r.latency) }));
}
