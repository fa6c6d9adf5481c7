import { type Tx } from '@/lib/db/client';
import type * as schema from '@/lib/db/schema/service';
import { slotWaiting } from './rate-schedule';
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

/** After a resume: the parked deliveries are due again, oldest first (a capped webhook's in its slots: rate-schedule.ts slotWaiting), and the workers are woken. How many. */
export async function unparkDeliveries(tx: Tx, webhookId: string): Promise<number> {
  return slotWaiting(tx, webhookId, 'parked');
}
