import { type DbOrTx } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import { ID_CLOCK_SLACK_MS } from '@/lib/ids';

// What webhooks' stats say about now, whatever the window: each one's backlog (from the delivery
// queue, migration 0041: the deliveries not settled, a small table, where service.deliveries would
// plan and probe each of its partitions, a year of days on PostgreSQL), its newest success (attempts_webhook_success_idx), its
// newest attempt and the failures since that success (attempts_webhook_time_idx), in the partitions since the histograms'
// bounds (attemptBounds). One statement
// for every webhook of a page (a LATERAL per webhook): planning a statement cost the store more
// than running it, and 20 of them were most of a stats page's time in the store.

export type TDeliveryState = {
  pending: number;
  sending: number;
  oldestPendingMs: number | null;
  nextAttemptMs: number | null;
  lastSuccessMs: number | null;
  lastAttemptMs: number | null;
  failureStreak: number;
};

type TRaw = {
  webhook_id: string;
  pending: number;
  sending: number;
  oldest_ms: number | string | null;
  next_ms: number | string | null;
  last_success_ms: number | string | null;
  last_attempt_ms: number | string | null;
  streak: number;
};

const ms = (v: number | string | null): number | null => (v === null ? null : Math.round(Number(v)));

type TBounds = { success: string; attempt: string; streak: string; until: string };
const EVERY: TBounds = { success: '-infinity', attempt: '-infinity', streak: '-infinity', until: 'infinity' };

/**
 * Where in time the newest success, the newest attempt and the failures since that success can be, read from the 6-hour
 * histograms (a bucket starts at or before each attempt it counts): the oldest of the webhooks' newest-success buckets, of
 * their newest-attempt buckets, and of their newest-success (or, never successful, first-attempt) buckets; and now, give or
 * take the slack of a clock (an attempt's time is the app's), so that the partitions made ahead are left out too. As
 * constants, they let the statement below plan the attempts partitions between alone, not every one (a year of days);
 * 'infinity': none has any. Only once the histograms hold every attempt (`complete`: rollupsComplete); before, every one.
 */
async function attemptBounds(db: DbOrTx, webhookIds: string[], complete: boolean): Promise<TBounds> {
  if (!complete) return EVERY;
  const bucket = (pick: 'max' | 'min', success: boolean) =>
    sql.raw(`(select ${pick}(bucket_start) from service.attempt_histograms
               where webhook_id = w.id and bucket_seconds = 21600${success ? ' and successes > 0' : ''})`);
  const [row] = await queryRows<{ success: Date | string | null; attempt: Date | string | null; streak: Date | string | null }>(
    db,
    sql`select min(s.at) as success, min(a.at) as attempt, min(coalesce(s.at, f.at)) as streak
          from unnest(${sqlArray(webhookIds, 'text')}) as w(id)
          cross join lateral (select ${bucket('max', true)} as at) s
          cross join lateral (select ${bucket('max', false)} as at) a
          cross join lateral (select ${bucket('min', false)} as at) f`,
  );
  const at = (v: Date | string | null | undefined) => (v === null || v === undefined ? 'infinity' : new Date(v).toISOString());
  const until = new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString();
  return { success: at(row?.success), attempt: at(row?.attempt), streak: at(row?.streak), until };
}

/** Each webhook's state, by id (every id asked for is in the map); `complete`: the histograms hold all their attempts. */
export async function queryDeliveryStates(db: DbOrTx, webhookIds: string[], complete: boolean): Promise<Map<string, TDeliveryState>> {
  if (webhookIds.length === 0) return new Map();
  const from = await attemptBounds(db, webhookIds, complete);
  const rows = await queryRows<TRaw>(
    db,
    sql`select w.id as webhook_id, backlog.pending, backlog.sending,
               extract(epoch from backlog.oldest) * 1000 as oldest_ms,
               extract(epoch from backlog.next_at) * 1000 as next_ms,
               extract(epoch from last_success.at) * 1000 as last_success_ms,
               extract(epoch from last_attempt.at) * 1000 as last_attempt_ms,
               streak.n as streak
          from unnest(${sqlArray(webhookIds, 'text')}) as w(id)
          cross join lateral (
            select count(*) filter (where status = 'pending')::int as pending,
                   count(*) filter (where status = 'sending')::int as sending,
                   min(created_at) as oldest,
                   min(next_attempt_at) filter (where status = 'pending') as next_at
              from service.delivery_queue
             where webhook_id = w.id and status in ('pending', 'sending')) backlog
          cross join lateral (
            select max(created_at) as at from service.attempts
             where webhook_id = w.id and status = 'success' and created_at >= ${from.success}::timestamptz and created_at <= ${from.until}::timestamptz
          ) last_success
          cross join lateral (
            select max(created_at) as at from service.attempts
             where webhook_id = w.id and created_at >= ${from.attempt}::timestamptz and created_at <= ${from.until}::timestamptz) last_attempt
          cross join lateral (
            select count(*)::int as n from service.attempts
             where webhook_id = w.id and created_at > coalesce(last_success.at, '-infinity'::timestamptz)
               and created_at >= ${from.streak}::timestamptz and created_at <= ${from.until}::timestamptz) streak`,
  );
  return new Map(
    rows.map((row) => [
      row.webhook_id,
      {
        pending: row.pending,
        sending: row.sending,
        oldestPendingMs: ms(row.oldest_ms),
        nextAttemptMs: ms(row.next_ms),
        lastSuccessMs: ms(row.last_success_ms),
        lastAttemptMs: ms(row.last_attempt_ms),
        failureStreak: row.streak,
      },
    ]),
  );
}
