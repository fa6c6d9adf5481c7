import { type DbOrTx } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';

// What webhooks' stats say about now, whatever the window: each one's backlog (from the delivery
// queue, migration 0041: the deliveries not settled, a small table, where service.deliveries would
// plan and probe each of its partitions, a year of days on PostgreSQL), its newest success (attempts_webhook_success_idx), its
// newest attempt and the failures since that success (attempts_webhook_time_idx). One statement
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

/** Each webhook's state, by id (every id asked for is in the map). */
export async function queryDeliveryStates(db: DbOrTx, webhookIds: string[]): Promise<Map<string, TDeliveryState>> {
  if (webhookIds.length === 0) return new Map();
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
          cross join lateral (select max(created_at) as at from service.attempts where webhook_id = w.id and status = 'success') last_success
          cross join lateral (select max(created_at) as at from service.attempts where webhook_id = w.id) last_attempt
          cross join lateral (
            select count(*)::int as n from service.attempts
             where webhook_id = w.id and created_at > coalesce(last_success.at, '-infinity'::timestamptz)) streak`,
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
