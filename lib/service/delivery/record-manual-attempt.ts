import { and, eq, inArray, sql } from 'drizzle-orm';
import * as schema from '@/lib/db/schema/service';
import { countAttempt } from '@/lib/metrics/count-attempt';
import type { TAttemptRow } from '@/lib/service/webhooks/webhook-json';
import { attemptValues, type TAttemptTarget } from './attempt-values';
import { causeOf, disableGone, endFailingStretches, GONE_STATUS, noteDisabled, noteRecovery } from './failing-stretch';
import { lockWebhookStates } from './lock-webhook-states';
import { wakingTransaction } from './wake-workers';
import type { TSendResult } from './send-webhook';

const d = schema.deliveries;

/**
 * The outcome of a manual resend: the attempt row; a success marks the message delivered (taking
 * it from any worker that holds it, whose own write then no longer applies); a 410 disables the
 * webhook and ends the message's retries. Other failures leave the schedule as it was.
 */
export async function recordManualAttempt(target: TAttemptTarget, result: TSendResult): Promise<TAttemptRow> {
  countAttempt(result, 'manual');
  return wakingTransaction(async (tx) => {
    const state = (await lockWebhookStates(tx, [target.webhookId])).get(target.webhookId);
    const [attempt] = await tx
      .insert(schema.attempts)
      .values(attemptValues(target, result, 'manual'))
      .returning();
    const row = eq(d.id, target.deliveryId);
    const [delivery] = await tx.select({ eventType: d.eventType, attemptCount: d.attemptCount }).from(d).where(row);
    const cause = causeOf(attempt, delivery?.eventType ?? '', (delivery?.attemptCount ?? 0) + 1);
    if (result.ok) {
      await noteRecovery(tx, state, cause);
      await endFailingStretches(tx, [target.webhookId]);
      await tx
        .update(d)
        .set({ status: 'success', nextAttemptAt: null, leaseOwner: null, leaseUntil: null, attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` })
        .where(row);
    } else if (result.statusCode === GONE_STATUS) {
      await noteDisabled(tx, state, await disableGone(tx, target.webhookId), cause);
      await tx
        .update(d)
        .set({ attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` })
        .where(row);
      await tx
        .update(d)
        .set({ status: 'failed', nextAttemptAt: null, leaseOwner: null, leaseUntil: null })
        .where(and(row, inArray(d.status, ['pending', 'sending'])));
    } else {
      await tx
        .update(d)
        .set({ attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` })
        .where(row);
    }
    return attempt;
  });
}
