import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { inSpan, pendingSpan } from '@/lib/service/delivery/pending-span';
import { wakeAfterCommit } from '@/lib/service/delivery/wake-workers';

// EXT rate cap (`rateLimit`, deliveries per second): a capped webhook's schedule is one row of
// service.webhook_rates, the earliest time its next delivery may go. The worker's claim
// (lib/service/delivery/claim.ts) gives each of the webhook's due deliveries the next slot, 1.02 s /
// rateLimit after the one before, oldest first: the one whose slot is now is sent, the others wait
// with their slot as their next attempt, out of every claim's way (no webhook's backlog delays
// another's deliveries). Each send is admitted as it goes against the row's sends of the last
// 1.02 s (lib/service/delivery/admit-send.ts), which is what keeps the cap. The row is locked by
// the claim that slots and the admission that sends, so any number of workers keep one schedule.

/** A cap set: the schedule starts now (a row kept from an earlier cap is reset). */
export async function startRateSchedule(tx: Tx, webhookId: string): Promise<void> {
  await tx.execute(
    sql`insert into service.webhook_rates (webhook_id, next_at) values (${webhookId}, now())
        on conflict (webhook_id) do update set next_at = now()`,
  );
}

// The deliveries waiting for a slot: parked by a pause (no next attempt), or slotted at a cap since changed.
const WAITING = {
  parked: sql.raw(`d.status = 'pending' and d.next_attempt_at is null`),
  slotted: sql.raw(`d.status = 'pending' and d.slot_at is not null`),
};

/**
 * The webhook's `waiting` deliveries made due in their order of creation, and the workers woken after the commit; how many.
 * A capped webhook's get the next slots of its schedule here, oldest first and 1.02 s / rateLimit apart from where the
 * schedule stands (claim.ts slots the same way), each due at its slot; an uncapped one's are due at their creation time.
 * Made due at their creation time, a capped backlog was older than every other webhook's due deliveries, and the claims'
 * candidates (the oldest due) were that webhook's alone until each had been slotted a claim at a time — the others'
 * deliveries waited behind it (the peak bench's paused run: the others' p99 6.39× their figure alone). The schedule row is
 * locked last: only a claim that sees the webhook not paused, or an admission of one of its sends, takes it, and both take
 * the webhook's row first, as this transaction did (its UPDATE); neither waits on the deliveries held here (no claim takes
 * one without a next attempt due).
 */
export async function slotWaiting(tx: Tx, webhookId: string, waiting: keyof typeof WAITING): Promise<number> {
  const which = WAITING[waiting];
  // Every waiting delivery is unsettled, so in the delivery queue: its span bounds the statement (pending-span.ts). One whose
  // queue row comes after this read is a new delivery, due anyway, not waiting; none is parked after the resume's UPDATE.
  const span = await pendingSpan(tx, webhookId);
  if (span === null) return 0;
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`with schedule as (
          select r.webhook_id, greatest(r.next_at, now()) as start, interval '1020 milliseconds' / w.rate_limit as step
          from service.webhook_rates r join service.webhooks w on w.id = r.webhook_id
          where r.webhook_id = ${webhookId} and w.rate_limit is not null
          for update of r),
        backlog as (
          select d.id, d.created_at, row_number() over (order by d.created_at, d.id) - 1 as k
          from service.delivery_queue q join service.deliveries d on d.id = q.id and d.created_at = q.created_at
          where q.webhook_id = ${webhookId} and q.status = 'pending' and d.webhook_id = ${webhookId} and ${which}
            and ${inSpan(sql.raw('d.created_at'), span)}),
        due as (
          update service.deliveries d
          set next_attempt_at = coalesce(s.start + b.k * s.step, d.created_at), slot_at = s.start + b.k * s.step, updated_at = now()
          from backlog b left join schedule s on true
          where d.id = b.id and d.created_at = b.created_at and d.webhook_id = ${webhookId} and ${which}
            and ${inSpan(sql.raw('d.created_at'), span)}
          returning d.slot_at),
        scheduled as (
          update service.webhook_rates r set next_at = (select max(slot_at) from due) + s.step
          from schedule s where r.webhook_id = s.webhook_id and exists (select 1 from due))
        select count(*)::int as n from due`,
  );
  const n = Number(row?.n ?? 0);
  if (n > 0) await wakeAfterCommit(tx);
  return n;
}

/** A cap changed or removed: the deliveries slotted at the old cap get slots of the new one from now (or are due at their creation time without one). */
export async function resetRateSlots(tx: Tx, webhookId: string): Promise<number> {
  return slotWaiting(tx, webhookId, 'slotted');
}
