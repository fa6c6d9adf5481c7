import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { inSpan, pendingSpan, type TSpan } from '@/lib/service/delivery/pending-span';
import { wakeAfterCommit, wakingTransaction } from '@/lib/service/delivery/wake-workers';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { countInWindow, type TRecoverWindow } from './recover-window';

// EXT POST /v1/webhooks/{id}/retry-pending: "retry now" for every message of the window whose
// delivery to this webhook failed at least once and waits for its next scheduled retry. Each is made
// due at once and the worker attempts it as the next step of its schedule: a success delivers it,
// a failure counts as that attempt and waits for the one after, as any scheduled retry would. A
// recover run's re-send (already due, outside the schedule) and a first attempt are not retries.

const d = schema.deliveries;

export type TRetryPendingPreview = { messages: number; since: string; until: string };
export type TRetryPendingResult = TRetryPendingPreview & { dueAt: string };

// Within the window, and within the span of the webhook's pending deliveries in the delivery queue (pending-span.ts): a
// window of 14 days is 15 daily partitions, the span of what waits is most often the newest one or two.
const waitingForRetry = (webhookId: string, window: TRecoverWindow, end: Date, span: TSpan | null) =>
  and(
    eq(d.webhookId, webhookId),
    eq(d.status, 'pending'),
    gte(d.scheduledAttemptCount, 1),
    isNull(d.recoverRunId),
    sql`${d.createdAt} >= ${window.since.toISOString()}::timestamptz`,
    sql`${d.createdAt} < ${end.toISOString()}::timestamptz`,
    inSpan(d.createdAt, span),
  );

/** How many messages of the window wait for a retry to this webhook (the preview of a retry now). */
export async function countRetryPending(accountId: string, webhookId: string, window: TRecoverWindow): Promise<TRetryPendingPreview> {
  const end = window.until ?? new Date();
  const span = await pendingSpan(await getDb(), webhookId, { since: window.since, until: end });
  return countInWindow(accountId, webhookId, { since: window.since, until: end }, () => waitingForRetry(webhookId, window, end, span));
}

/**
 * Makes the window's waiting retries due now and wakes the workers. The webhook row is locked for
 * the transaction (as a recover's), so a change of its state cannot slip between the check and the
 * update. Asking again is harmless: it makes due what waits then.
 */
export async function retryPendingNow(accountId: string, webhookId: string, window: TRecoverWindow): Promise<TRetryPendingResult> {
  return wakingTransaction(async (tx) => {
    const webhook = await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
    if (webhook.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before retrying its messages.');
    const [clock] = await queryRows<{ now: Date | string }>(tx, sql`select now() as now`);
    const now = new Date(clock.now);
    const end = window.until ?? now;
    const span = await pendingSpan(tx, webhookId, { since: window.since, until: end });
    const due = await tx
      .update(d)
      .set({ nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
      .where(waitingForRetry(webhookId, window, end, span))
      .returning({ id: d.id });
    if (due.length > 0) await wakeAfterCommit(tx);
    return { messages: due.length, since: window.since.toISOString(), until: end.toISOString(), dueAt: now.toISOString() };
  });
}
