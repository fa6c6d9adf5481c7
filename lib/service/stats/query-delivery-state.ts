import { queryRows, sql, type DbOrTx } from '@/lib/db/client';

// What a webhook's stats say about now, whatever the window: its backlog (over the
// deliveries_webhook_status_idx index), its newest success (attempts_webhook_success_idx), its
// newest attempt and the failures since that success (attempts_webhook_time_idx).

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
  pending: number;
  sending: number;
  oldest_ms: number | string | null;
  next_ms: number | string | null;
  last_success_ms: number | string | null;
  last_attempt_ms: number | string | null;
  streak: number;
};

const ms = (v: number | string | null): number | null => (v === null ? null : Math.round(Number(v)));

export async function queryDeliveryState(db: DbOrTx, webhookId: string): Promise<TDeliveryState> {
  const [row] = await queryRows<TRaw>(
    db,
    sql`with backlog as (
          select count(*) filter (where status = 'pending')::int as pending,
                 count(*) filter (where status = 'sending')::int as sending,
                 min(created_at) as oldest,
                 min(next_attempt_at) filter (where status = 'pending') as next_at
            from service.deliveries
           where webhook_id = ${webhookId} and status in ('pending', 'sending')
        ), last_success as (
          select max(created_at) as at from service.attempts where webhook_id = ${webhookId} and status = 'success'
        )
        select backlog.pending, backlog.sending,
               extract(epoch from backlog.oldest) * 1000 as oldest_ms,
               extract(epoch from backlog.next_at) * 1000 as next_ms,
               extract(epoch from last_success.at) * 1000 as last_success_ms,
               (select extract(epoch from max(created_at)) * 1000 from service.attempts where webhook_id = ${webhookId}) as last_attempt_ms,
               (select count(*)::int from service.attempts
                 where webhook_id = ${webhookId} and created_at > coalesce(last_success.at, '-infinity'::timestamptz)) as streak
          from backlog, last_success`,
  );
  return {
    pending: row.pending,
    sending: row.sending,
    oldestPendingMs: ms(row.oldest_ms),
    nextAttemptMs: ms(row.next_ms),
    lastSuccessMs: ms(row.last_success_ms),
    lastAttemptMs: ms(row.last_attempt_ms),
    failureStreak: row.streak,
  };
}
