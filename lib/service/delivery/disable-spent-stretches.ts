import { sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { ID_CLOCK_SLACK_SQL } from '@/lib/ids';
import { emitOperationalEvent, type TCause } from '@/lib/service/events/emit-operational-event';
import { stretchReason, stretchSpent } from './failing-stretch';
import { wakingTransaction } from '@/lib/service/delivery/wake-workers';

// A webhook is disabled when its failing stretch reaches DELIVERY_DISABLE_AFTER_MS — at `disablesAt`,
// whether or not an attempt falls due then. A failed attempt past it disables the webhook as it is
// recorded (failing-stretch.ts); this part of the failing sweep (failing-warnings.ts, beside every
// delivery worker) disables the ones with nothing to attempt: retries hours apart, or no message at
// all. Once only across processes: a conditional UPDATE (still enabled, the same stretch, spent) in
// the transaction that queues `webhook.disabled`; two sweeps, or a sweep and a worker's failing
// batch, change the row once and queue the event once (the loser's UPDATE finds it disabled).

type TSpent = { id: string; failing_since: Date | string };
type TDisabled = { id: string; account_id: string; url: string; failing_since: Date | string; disabled_reason: string; disabled_at: Date | string };
type TLastFailure = {
  id: string;
  message_id: string;
  created_at: Date | string;
  response_status_code: number;
  response: string;
  event_type: string;
  attempt_count: number;
};

const iso = (v: Date | string) => new Date(v).toISOString();

async function disableOne(tx: Tx, c: TSpent): Promise<boolean> {
  const [w] = await queryRows<TDisabled>(
    tx,
    sql`update service.webhooks
        set disabled = true, disabled_reason = ${stretchReason()}, disabled_at = now(), updated_at = now()
        where id = ${c.id} and not disabled and deleted_at is null and failing_since = ${iso(c.failing_since)}::timestamptz and ${stretchSpent()}
        returning id, account_id, url, failing_since, disabled_reason, disabled_at`,
  );
  if (!w) return false;
  // The event names the stretch's newest failed attempt, as one a delivery disabled it with does.
  const [last] = await queryRows<TLastFailure>(
    tx,
    sql`select a.id, a.message_id, a.created_at, a.response_status_code, a.response, d.event_type, d.attempt_count
        from service.attempts a join service.deliveries d
          on d.id = a.delivery_id and d.created_at <= a.created_at + ${sql.raw(ID_CLOCK_SLACK_SQL)}
        where a.webhook_id = ${w.id} and a.status = 'failed'
        order by a.created_at desc limit 1`,
  );
  const cause: TCause | null = last
    ? {
        messageId: last.message_id,
        eventType: last.event_type,
        attemptCount: Number(last.attempt_count),
        attemptId: last.id,
        attemptedAt: new Date(last.created_at),
        responseStatusCode: Number(last.response_status_code),
        response: last.response ?? '',
      }
    : null;
  await emitOperationalEvent(tx, {
    type: 'webhook.disabled',
    webhook: { id: w.id, accountId: w.account_id, url: w.url, failingSince: new Date(w.failing_since) },
    reason: w.disabled_reason,
    disabledAt: new Date(w.disabled_at),
    cause,
    trigger: 'delivery',
  });
  return true;
}

/** One sweep: every enabled webhook whose failing stretch has lasted the threshold is disabled (not a paused one: stretchSpent). How many were. */
export async function disableSpentStretches(): Promise<number> {
  const db = await getDb();
  const spent = await queryRows<TSpent>(
    db,
    sql`select id, failing_since from service.webhooks
        where failing_since is not null and not disabled and deleted_at is null and ${stretchSpent()}
        order by failing_since
        limit 500`,
  );
  let disabled = 0;
  // One transaction a webhook: each locks one row, so a sweep never deadlocks with the worker's batches.
  for (const c of spent) if (await wakingTransaction((tx) => disableOne(tx, c))) disabled++;
  return disabled;
}
