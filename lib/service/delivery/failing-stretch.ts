import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { env } from '@/lib/env';
import { emitOperationalEvent, type TCause } from '@/lib/service/events/emit-operational-event';
import type { TAttemptRow } from '@/lib/service/webhooks/webhook-json';
import type { TLockedWebhook } from './lock-webhook-states';

// A webhook's failing stretch: it starts with a failed attempt, ends with a success
// (`webhook.recovered`) and, once it has lasted DELIVERY_DISABLE_AFTER_MS with no success in
// between, disables the webhook (`webhook.disabled`); a 410 Gone disables it at once. Both the
// worker's batches and manual attempts go through here.

const w = schema.webhooks;

export const GONE_STATUS = 410;
const GONE_REASON = 'the endpoint answered 410 Gone';

/** The webhook's state after a failure: whether (and why, since when) it is now disabled. */
export type TWebhookAfter = { disabled: boolean; reason: string | null; disabledAt: Date | null };

/**
 * The one place the disable threshold is written: the stretch (begun now if none) has lasted long
 * enough, and the webhook is not paused (its clock stands still: lib/service/webhooks/pause-webhook.ts).
 */
export const stretchSpent = () =>
  sql`(paused_at is null and coalesce(failing_since, now()) <= now() - ${env.DELIVERY_DISABLE_AFTER_MS}::bigint * interval '1 millisecond')`;

/** The `disabledReason` of a webhook its failing stretch disabled. */
export const stretchReason = () => sql`'failing with no success since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** Disables the webhook at once (a 410 Gone); an already disabled one keeps its reason. */
export async function disableGone(tx: Tx, webhookId: string): Promise<TWebhookAfter> {
  const [row] = await tx
    .update(w)
    .set({ disabled: true, disabledReason: GONE_REASON, disabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(w.id, webhookId), eq(w.disabled, false)))
    .returning({ reason: w.disabledReason, disabledAt: w.disabledAt });
  return { disabled: true, reason: row?.reason ?? GONE_REASON, disabledAt: row?.disabledAt ?? new Date() };
}

/**
 * A failure of the webhook's endpoint: starts (or continues) its failing stretch and disables it
 * once that stretch reaches the threshold; a 410 Gone disables it at once.
 */
export async function noteWebhookFailure(tx: Tx, webhookId: string, statusCode: number): Promise<TWebhookAfter> {
  if (statusCode === GONE_STATUS) return disableGone(tx, webhookId);
  const spent = stretchSpent();
  const [row] = await queryRows<{ disabled: boolean; disabled_reason: string | null; disabled_at: Date | string | null }>(
    tx,
    sql`update service.webhooks set
          failing_since = coalesce(failing_since, now()),
          disabled_reason = case when not disabled and ${spent} then ${stretchReason()} else disabled_reason end,
          disabled_at = case when not disabled and ${spent} then now() else disabled_at end,
          disabled = disabled or ${spent}
        where id = ${webhookId}
        returning disabled, disabled_reason, disabled_at`,
  );
  return { disabled: row?.disabled ?? false, reason: row?.disabled_reason ?? null, disabledAt: row?.disabled_at ? new Date(row.disabled_at) : null };
}

/** Successes end these webhooks' failing stretches (the events are `noteRecovery`'s). */
export async function endFailingStretches(tx: Tx, webhookIds: string[]): Promise<void> {
  await tx
    .update(w)
    .set({ failingSince: null })
    .where(and(inArray(w.id, [...new Set(webhookIds)]), isNotNull(w.failingSince)));
}

/** The attempt that caused an operational event, for its payload. */
export function causeOf(
  values: Pick<TAttemptRow, 'id' | 'messageId' | 'createdAt' | 'responseStatusCode' | 'response'>,
  eventType: string,
  attemptCount: number,
): TCause {
  return {
    messageId: values.messageId,
    eventType,
    attemptCount,
    attemptId: values.id,
    attemptedAt: values.createdAt,
    responseStatusCode: values.responseStatusCode,
    response: values.response,
  };
}

/** A webhook's failing stretch ended with this success: `webhook.recovered`, unless it is disabled (then it has not). */
export async function noteRecovery(tx: Tx, state: TLockedWebhook | undefined, cause: TCause): Promise<void> {
  if (!state || state.failingSince === null || state.disabled) return;
  await emitOperationalEvent(tx, { type: 'webhook.recovered', webhook: state, recoveredAt: cause.attemptedAt, cause });
  state.failingSince = null;
}

/** A failure that disabled the webhook (it was enabled when this transaction locked it): `webhook.disabled`. */
export async function noteDisabled(tx: Tx, state: TLockedWebhook | undefined, after: TWebhookAfter, cause: TCause): Promise<void> {
  if (!state || state.disabled || !after.disabled) return;
  state.disabled = true;
  const webhook = { ...state, failingSince: state.failingSince ?? cause.attemptedAt };
  await emitOperationalEvent(tx, { type: 'webhook.disabled', webhook, reason: after.reason ?? 'disabled', disabledAt: after.disabledAt ?? new Date(), cause });
}
