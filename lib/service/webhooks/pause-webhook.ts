import { sql } from 'drizzle-orm';
import { type Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import type * as schema from '@/lib/db/schema/service';
import { wakeAfterCommit } from '@/lib/service/delivery/wake-workers';
import type { TWebhookRow } from './webhook-json';

// EXT pause and resume (PATCH /v1/webhooks/{id} `paused`). A paused webhook keeps queueing: its
// messages get their deliveries as ever, and the worker's claim parks every due one instead of
// sending it (status pending, no next attempt: claim.ts), so a paused backlog costs no claim a scan.
// Its failing stretch's clock stands still: the sweeps and a failure in flight at the pause do not
// disable it (failing-stretch.ts), and resuming moves `failing_since` on by the time it was paused,
// so a pause never leads to a disable. Resuming makes the parked deliveries due — at their creation
// time, or a capped webhook's at their slots — so the backlog goes out oldest first, and wakes the workers.

type TChange = Partial<typeof schema.webhooks.$inferInsert>;

/** The columns a pause or a resume changes (nothing when it is already so). */
export function pauseChange(current: TWebhookRow, paused: boolean | undefined, now: Date): TChange {
  if (paused === true && !current.pausedAt) return { pausedAt: now };
  if (paused !== false || !current.pausedAt) return {};
  const held = now.getTime() - current.pausedAt.getTime();
  const later = (at: Date | null) => (at ? new Date(at.getTime() + held) : null);
  const change: TChange = { pausedAt: null, failingSince: later(current.failingSince) };
  // The warnings already sent for this stretch stay sent: the stretch is the same, moved on.
  if (current.failingWarnedSince && current.failingSince && current.failingWarnedSince.getTime() === current.failingSince.getTime()) {
    change.failingWarnedSince = change.failingSince;
  }
  return change;
}

/**
 * After a resume: the parked deliveries are due again in their order of creation, and the workers are woken. How many.
 * A capped webhook's get their slots of its schedule here, oldest first and 1.02 s / rateLimit apart from where the
 * schedule stands (claim.ts slots the same way), each due at its slot: made due at their creation time, the whole
 * backlog was older than every other webhook's due deliveries, and the claims' candidates (the oldest due) were the
 * capped webhook's alone until each had been slotted a claim at a time — the others' deliveries waited behind it
 * (the peak bench's paused run: the others' p99 6.39× their figure alone). Its schedule row is locked last: only a
 * claim that sees the webhook not paused, or an admission of one of its sends, takes it, and neither waits on what
 * this transaction holds (the webhook's row, the parked deliveries: no claim takes one without a next attempt).
 */
export async function unparkDeliveries(tx: Tx, webhookId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with schedule as (
          select r.webhook_id, greatest(r.next_at, now()) as start, interval '1020 milliseconds' / w.rate_limit as step
          from service.webhook_rates r join service.webhooks w on w.id = r.webhook_id
          where r.webhook_id = ${webhookId} and w.rate_limit is not null
          for update of r),
        parked as (
          select id, created_at, row_number() over (order by created_at, id) - 1 as k from service.deliveries
          where webhook_id = ${webhookId} and status = 'pending' and next_attempt_at is null),
        due as (
          update service.deliveries d
          set next_attempt_at = coalesce(s.start + p.k * s.step, d.created_at), slot_at = s.start + p.k * s.step, updated_at = now()
          from parked p left join schedule s on true
          where d.id = p.id and d.created_at = p.created_at and d.webhook_id = ${webhookId} and d.status = 'pending' and d.next_attempt_at is null
          returning d.slot_at),
        scheduled as (
          update service.webhook_rates r set next_at = (select max(slot_at) from due) + s.step
          from schedule s where r.webhook_id = s.webhook_id and exists (select 1 from due))
        select count(*)::int as n from due`,
  );
  const n = Number(rows[0]?.n ?? 0);
  if (n > 0) wakeAfterCommit(tx);
  return n;
}
