import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
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

/**
 * A cap changed or removed: the deliveries waiting for a slot of the old cap are due again at their
 * creation time (re-slotted at the new cap, oldest first, or sent as they come without one), and the
 * workers are woken.
 */
export async function resetRateSlots(tx: Tx, webhookId: string): Promise<void> {
  await tx.execute(
    sql`update service.deliveries set next_attempt_at = created_at, slot_at = null, updated_at = now()
        where webhook_id = ${webhookId} and status = 'pending' and slot_at is not null`,
  );
  wakeAfterCommit(tx);
}
