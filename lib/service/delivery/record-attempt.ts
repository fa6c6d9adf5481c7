import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb, queryRows, schema, type Tx } from '@/lib/db/client';
import { env } from '@/lib/env';
import { prefixedId } from '@/lib/ids';
import type { TAttemptRow } from '@/lib/service/webhooks/webhook-json';
import type { TClaim } from './claim';
import { nextRetryDelayMs, parseRetryAfter } from './schedule';
import type { TSendResult } from './send-webhook';

const d = schema.deliveries;
const w = schema.webhooks;

type TAttemptTarget = { deliveryId: string; messageId: string; webhookId: string; accountId: string; url: string };

async function insertAttempt(tx: Tx, target: TAttemptTarget, result: TSendResult, triggerType: 'scheduled' | 'manual'): Promise<TAttemptRow> {
  const [row] = await tx
    .insert(schema.attempts)
    .values({
      id: prefixedId(ID_PREFIX.attempt),
      deliveryId: target.deliveryId,
      messageId: target.messageId,
      webhookId: target.webhookId,
      accountId: target.accountId,
      url: target.url,
      createdAt: result.startedAt,
      status: result.ok ? 'success' : 'failed',
      responseStatusCode: result.statusCode,
      responseDurationMs: result.durationMs,
      response: result.response,
      triggerType,
    })
    .returning();
  return row;
}

async function disableWebhook(tx: Tx, webhookId: string, reason: string): Promise<void> {
  await tx
    .update(w)
    .set({ disabled: true, disabledReason: reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(w.id, webhookId), eq(w.disabled, false)));
}

/**
 * A failure of the webhook's endpoint: starts (or continues) its failing stretch and disables it
 * once that stretch, with no success in between, reaches DELIVERY_DISABLE_AFTER_MS; a 410 Gone
 * disables it at once. Returns whether the webhook is now disabled.
 */
async function noteWebhookFailure(tx: Tx, webhookId: string, statusCode: number): Promise<boolean> {
  if (statusCode === 410) {
    await disableWebhook(tx, webhookId, 'the endpoint answered 410 Gone');
    return true;
  }
  const [row] = await queryRows<{ disabled: boolean }>(
    tx,
    sql`update service.webhooks set
          failing_since = coalesce(failing_since, now()),
          disabled_reason = case when not disabled and coalesce(failing_since, now()) <= now() - ${env.DELIVERY_DISABLE_AFTER_MS}::bigint * interval '1 millisecond'
                                 then 'failing with no success since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                                 else disabled_reason end,
          disabled_at = case when not disabled and coalesce(failing_since, now()) <= now() - ${env.DELIVERY_DISABLE_AFTER_MS}::bigint * interval '1 millisecond'
                             then now()
                             else disabled_at end,
          disabled = disabled or coalesce(failing_since, now()) <= now() - ${env.DELIVERY_DISABLE_AFTER_MS}::bigint * interval '1 millisecond'
        where id = ${webhookId}
        returning disabled`,
  );
  return row?.disabled ?? false;
}

/**
 * The outcome of a worker's attempt, in one transaction: the attempt row, then the delivery's
 * next state — written only while the lease is still this claim's, so a lease that expired and
 * was taken by another worker is never overwritten (the attempt is still recorded and counted).
 */
export async function recordScheduledAttempt(claim: TClaim, url: string, result: TSendResult): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await insertAttempt(tx, { deliveryId: claim.id, messageId: claim.messageId, webhookId: claim.webhookId, accountId: claim.accountId, url }, result, 'scheduled');
    const attemptNumber = claim.scheduledAttemptCount + 1;
    const ours = and(eq(d.id, claim.id), eq(d.status, 'sending'), eq(d.leaseOwner, claim.leaseOwner));
    const common = {
      attemptCount: sql`${d.attemptCount} + 1`,
      scheduledAttemptCount: attemptNumber,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: sql`now()`,
    };
    let next: Record<string, unknown>;
    if (result.ok) {
      await tx.update(w).set({ failingSince: null }).where(and(eq(w.id, claim.webhookId), isNotNull(w.failingSince)));
      next = { status: 'success', nextAttemptAt: null };
    } else {
      const disabled = await noteWebhookFailure(tx, claim.webhookId, result.statusCode);
      const delayMs = disabled
        ? null
        : nextRetryDelayMs(attemptNumber, env.DELIVERY_RETRY_SCHEDULE, { statusCode: result.statusCode, retryAfterSeconds: parseRetryAfter(result.retryAfter) });
      next =
        delayMs === null
          ? { status: 'failed', nextAttemptAt: null }
          : { status: 'pending', nextAttemptAt: sql`now() + ${Math.round(delayMs)}::int * interval '1 millisecond'` };
    }
    const updated = await tx.update(d).set({ ...common, ...next }).where(ours).returning({ id: d.id });
    if (updated.length === 0) {
      await tx.update(d).set({ attemptCount: sql`${d.attemptCount} + 1` }).where(eq(d.id, claim.id));
    }
  });
}

/** A claimed delivery whose webhook was disabled or deleted meanwhile ends `failed`, unattempted. */
export async function abandonClaim(claim: TClaim): Promise<void> {
  const db = await getDb();
  await db
    .update(d)
    .set({ status: 'failed', nextAttemptAt: null, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(d.id, claim.id), eq(d.status, 'sending'), eq(d.leaseOwner, claim.leaseOwner)));
}

/**
 * The outcome of a manual resend: the attempt row; a success marks the message delivered (taking
 * it from any worker that holds it, whose own write then no longer applies); a 410 disables the
 * webhook and ends the message's retries. Other failures leave the schedule as it was.
 */
export async function recordManualAttempt(target: TAttemptTarget, result: TSendResult): Promise<TAttemptRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const attempt = await insertAttempt(tx, target, result, 'manual');
    const row = eq(d.id, target.deliveryId);
    if (result.ok) {
      await tx.update(w).set({ failingSince: null }).where(and(eq(w.id, target.webhookId), isNotNull(w.failingSince)));
      await tx
        .update(d)
        .set({ status: 'success', nextAttemptAt: null, leaseOwner: null, leaseUntil: null, attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` })
        .where(row);
    } else if (result.statusCode === 410) {
      await disableWebhook(tx, target.webhookId, 'the endpoint answered 410 Gone');
      await tx.update(d).set({ attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` }).where(row);
      await tx
        .update(d)
        .set({ status: 'failed', nextAttemptAt: null, leaseOwner: null, leaseUntil: null })
        .where(and(row, inArray(d.status, ['pending', 'sending'])));
    } else {
      await tx.update(d).set({ attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` }).where(row);
    }
    return attempt;
  });
}
