import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { batchWriter } from '@/lib/db/batch-writer';
import { driverRows, getDb, queryRows, schema, type Tx } from '@/lib/db/client';
import { env } from '@/lib/env';
import { prefixedId } from '@/lib/ids';
import { isOperationalEventType } from '@/lib/constants';
import { emitOperationalEvent, type TCause } from '@/lib/service/webhooks/emit-operational-event';
import { countAttempt } from '@/lib/metrics/count-attempt';
import type { TAttemptRow } from '@/lib/service/webhooks/webhook-json';
import type { TClaim } from './claim';
import { lockWebhookStates, type TLockedWebhook } from './lock-webhook-states';
import { nextRetryDelayMs, parseRetryAfter } from './schedule';
import type { TSendResult } from './send-webhook';

const d = schema.deliveries;
const w = schema.webhooks;

type TAttemptTarget = { deliveryId: string; messageId: string; webhookId: string; accountId: string; url: string };

function attemptValues(target: TAttemptTarget, result: TSendResult, triggerType: 'scheduled' | 'manual') {
  return {
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
  };
}

async function insertAttempt(tx: Tx, target: TAttemptTarget, result: TSendResult, triggerType: 'scheduled' | 'manual'): Promise<TAttemptRow> {
  const [row] = await tx.insert(schema.attempts).values(attemptValues(target, result, triggerType)).returning();
  return row;
}

type TWebhookAfter = { disabled: boolean; reason: string | null; disabledAt: Date | null };

async function disableWebhook(tx: Tx, webhookId: string, reason: string): Promise<TWebhookAfter> {
  const [row] = await tx
    .update(w)
    .set({ disabled: true, disabledReason: reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(w.id, webhookId), eq(w.disabled, false)))
    .returning({ reason: w.disabledReason, disabledAt: w.disabledAt });
  return { disabled: true, reason: row?.reason ?? reason, disabledAt: row?.disabledAt ?? new Date() };
}

/**
 * A failure of the webhook's endpoint: starts (or continues) its failing stretch and disables it
 * once that stretch, with no success in between, reaches DELIVERY_DISABLE_AFTER_MS; a 410 Gone
 * disables it at once. Returns whether (and why) the webhook is now disabled.
 */
async function noteWebhookFailure(tx: Tx, webhookId: string, statusCode: number): Promise<TWebhookAfter> {
  if (statusCode === 410) return disableWebhook(tx, webhookId, 'the endpoint answered 410 Gone');
  const [row] = await queryRows<{ disabled: boolean; disabled_reason: string | null; disabled_at: Date | string | null }>(
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
        returning disabled, disabled_reason, disabled_at`,
  );
  return { disabled: row?.disabled ?? false, reason: row?.disabled_reason ?? null, disabledAt: row?.disabled_at ? new Date(row.disabled_at) : null };
}

/** The attempt that caused an operational event, for its payload. */
function causeOf(
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
async function noteRecovery(tx: Tx, state: TLockedWebhook | undefined, cause: TCause): Promise<void> {
  if (!state || state.failingSince === null || state.disabled) return;
  await emitOperationalEvent(tx, { type: 'webhook.recovered', webhook: state, recoveredAt: cause.attemptedAt, cause });
  state.failingSince = null;
}

/** A failure that disabled the webhook (it was enabled when this transaction locked it): `webhook.disabled`. */
async function noteDisabled(tx: Tx, state: TLockedWebhook | undefined, after: TWebhookAfter, cause: TCause): Promise<void> {
  if (!state || state.disabled || !after.disabled) return;
  state.disabled = true;
  const webhook = { ...state, failingSince: state.failingSince ?? cause.attemptedAt };
  await emitOperationalEvent(tx, { type: 'webhook.disabled', webhook, reason: after.reason ?? 'disabled', disabledAt: after.disabledAt ?? new Date(), cause });
}

type TScheduledAttempt = { claim: TClaim; url: string; result: TSendResult };
type TRecorded = TScheduledAttempt & { values: ReturnType<typeof attemptValues> };

const targetOf = ({ claim, url }: TScheduledAttempt): TAttemptTarget => ({
  deliveryId: claim.id,
  messageId: claim.messageId,
  webhookId: claim.webhookId,
  accountId: claim.accountId,
  url,
});

/** Written only while the lease is still this claim's (another worker may have taken an expired one). */
const ours = (claim: TClaim) => and(eq(d.id, claim.id), eq(d.status, 'sending'), eq(d.leaseOwner, claim.leaseOwner));

/** Successes in three statements however many: the webhooks' failing stretches end, the deliveries are done. */
async function recordSuccesses(tx: Tx, items: TRecorded[], states: Map<string, TLockedWebhook>): Promise<void> {
  if (items.length === 0) return;
  await tx
    .update(w)
    .set({ failingSince: null })
    .where(and(inArray(w.id, [...new Set(items.map((i) => i.claim.webhookId))]), isNotNull(w.failingSince)));
  const rows = sql.join(
    items.map(({ claim }) => sql`(${claim.id}::uuid, ${claim.leaseOwner}::text, ${claim.scheduledAttemptCount + (claim.recoverRunId ? 0 : 1)}::int)`),
    sql`, `,
  );
  const done = await queryRows<{ id: string; event_type: string; attempt_count: number }>(
    tx,
    sql`update service.deliveries d set status = 'success', next_attempt_at = null, attempt_count = d.attempt_count + 1,
          scheduled_attempt_count = v.n, lease_owner = null, lease_until = null, updated_at = now()
        from (values ${rows}) as v(id, owner, n)
        where d.id = v.id and d.status = 'sending' and d.lease_owner = v.owner
        returning d.id, d.event_type, d.attempt_count`,
  );
  const recorded = new Map(done.map((r) => [r.id, r]));
  const lost = items.filter((i) => !recorded.has(i.claim.id)).map((i) => i.claim.id);
  if (lost.length > 0) await tx.update(d).set({ attemptCount: sql`${d.attemptCount} + 1` }).where(inArray(d.id, lost));
  for (const item of items) {
    const row = recorded.get(item.claim.id);
    const cause = causeOf(item.values, row?.event_type ?? '', Number(row?.attempt_count ?? item.claim.scheduledAttemptCount + 1));
    await noteRecovery(tx, states.get(item.claim.webhookId), cause);
  }
}

/**
 * A failure: the webhook's failing stretch (which may disable it: `webhook.disabled`), then a retry
 * or the end of the schedule (`message.attempt.exhausted`, unless the message is itself an
 * operational event, or the webhook was disabled, which ends its retries and says so itself).
 * A recover run's re-send is tried once: it fails back to `failed`, its schedule untouched, and
 * raises no second `message.attempt.exhausted`.
 */
async function recordFailure(tx: Tx, { claim, result, values }: TRecorded, states: Map<string, TLockedWebhook>): Promise<void> {
  const recovery = claim.recoverRunId !== null;
  const attemptNumber = claim.scheduledAttemptCount + (recovery ? 0 : 1);
  const after = await noteWebhookFailure(tx, claim.webhookId, result.statusCode);
  const disabled = after.disabled;
  const delayMs = disabled || recovery
    ? null
    : nextRetryDelayMs(attemptNumber, env.DELIVERY_RETRY_SCHEDULE, { statusCode: result.statusCode, retryAfterSeconds: parseRetryAfter(result.retryAfter) });
  const next =
    delayMs === null
      ? { status: 'failed', nextAttemptAt: null }
      : { status: 'pending', nextAttemptAt: sql`now() + ${Math.round(delayMs)}::int * interval '1 millisecond'` };
  const counted = { eventType: d.eventType, attemptCount: d.attemptCount };
  let [row] = await tx
    .update(d)
    .set({ attemptCount: sql`${d.attemptCount} + 1`, scheduledAttemptCount: attemptNumber, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()`, ...next })
    .where(ours(claim))
    .returning(counted);
  const applied = row !== undefined;
  if (!applied) [row] = await tx.update(d).set({ attemptCount: sql`${d.attemptCount} + 1` }).where(eq(d.id, claim.id)).returning(counted);
  const cause = causeOf(values, row?.eventType ?? '', row?.attemptCount ?? attemptNumber);
  const state = states.get(claim.webhookId);
  if (state && state.failingSince === null) state.failingSince = values.createdAt;
  await noteDisabled(tx, state, after, cause);
  if (applied && delayMs === null && !disabled && !recovery && !isOperationalEventType(cause.eventType)) {
    await emitOperationalEvent(tx, { type: 'message.attempt.exhausted', webhook: state ?? { id: claim.webhookId, accountId: claim.accountId, url: values.url, failingSince: null }, cause });
  }
}

// Every attempt of the batch succeeded and none of its webhooks is failing (the common case): one
// statement, its own transaction, writes the attempt rows and ends the deliveries. It locks the
// webhooks like the general path (same order), and writes nothing if one of them is failing: that
// success ends a failing stretch, which the general path records with its `webhook.recovered`.
// Sent to the driver as text with one array per column, so its text is the same for any batch.
const HEALTHY_SUCCESSES = `
  with v as (
    select * from unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::timestamptz[],
                         $8::int[], $9::int[], $10::text[], $11::text[], $12::text[], $13::int[])
      as v(id, delivery_id, message_id, webhook_id, account_id, url, created_at,
           response_status_code, response_duration_ms, response, trigger_type, lease_owner, scheduled_n)),
  locked as (
    select id, failing_since from service.webhooks where id in (select webhook_id from v) order by id for no key update),
  healthy as (
    select count(*) filter (where failing_since is not null) = 0 as yes from locked),
  attempts as (
    insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status,
                                  response_status_code, response_duration_ms, response, trigger_type)
    select id, delivery_id, message_id, webhook_id, account_id, url, created_at, 'success',
           response_status_code, response_duration_ms, response, trigger_type
    from v where (select yes from healthy)),
  done as (
    update service.deliveries d set status = 'success', next_attempt_at = null, attempt_count = d.attempt_count + 1,
      scheduled_attempt_count = v.scheduled_n, lease_owner = null, lease_until = null, updated_at = now()
    from v
    where d.id = v.delivery_id and d.status = 'sending' and d.lease_owner = v.lease_owner and (select yes from healthy)
    returning d.id)
  select (select yes from healthy) as healthy, coalesce((select array_agg(id) from done), '{}') as done`;

/** The all-success batch in one statement; false (nothing written) when one of its webhooks is failing. */
async function recordHealthySuccesses(items: TRecorded[]): Promise<boolean> {
  const v = items.map((i) => i.values);
  const [row] = await driverRows<{ healthy: boolean; done: string[] }>(HEALTHY_SUCCESSES, [
    v.map((x) => x.id), v.map((x) => x.deliveryId), v.map((x) => x.messageId), v.map((x) => x.webhookId),
    v.map((x) => x.accountId), v.map((x) => x.url), v.map((x) => x.createdAt), v.map((x) => x.responseStatusCode),
    v.map((x) => x.responseDurationMs), v.map((x) => x.response), v.map((x) => x.triggerType),
    items.map((i) => i.claim.leaseOwner), items.map((i) => i.claim.scheduledAttemptCount + (i.claim.recoverRunId ? 0 : 1)),
  ]);
  if (!row?.healthy) return false;
  // A lease lost meanwhile (another worker holds the delivery now): the attempt still counts.
  const done = new Set(row.done);
  const lost = items.filter((i) => !done.has(i.claim.id)).map((i) => i.claim.id);
  if (lost.length > 0) await (await getDb()).update(d).set({ attemptCount: sql`${d.attemptCount} + 1` }).where(inArray(d.id, lost));
  return true;
}

/**
 * The outcomes of the worker's attempts that finished together, in one transaction: the attempt
 * rows, then each delivery's next state. An attempt whose lease was lost is still recorded and
 * counted; only the delivery's state is left to the worker that holds it now.
 */
async function recordScheduledAttempts(items: TScheduledAttempt[]): Promise<void[]> {
  const recorded: TRecorded[] = items.map((i) => ({ ...i, values: attemptValues(targetOf(i), i.result, i.claim.recoverRunId ? 'manual' : 'scheduled') }));
  if (recorded.every((i) => i.result.ok) && (await recordHealthySuccesses(recorded))) return items.map(() => undefined);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const states = await lockWebhookStates(tx, items.map((i) => i.claim.webhookId));
    await tx.insert(schema.attempts).values(recorded.map((r) => r.values));
    await recordSuccesses(tx, recorded.filter((i) => i.result.ok), states);
    for (const item of recorded) if (!item.result.ok) await recordFailure(tx, item, states);
  });
  return items.map(() => undefined);
}

// One batch at a time: batches lock their webhooks' rows, so side by side they would mostly wait
// on each other; one at a time, the outcomes that finish meanwhile join the next batch.
const submitScheduled = batchWriter('scheduled-attempts', recordScheduledAttempts, { postgresInFlight: 1 });

/** Records a worker's attempt; resolves once it is committed (with others that finished meanwhile). */
export function recordScheduledAttempt(claim: TClaim, url: string, result: TSendResult): Promise<void> {
  countAttempt(result, 'scheduled');
  return submitScheduled({ claim, url, result });
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
  countAttempt(result, 'manual');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const state = (await lockWebhookStates(tx, [target.webhookId])).get(target.webhookId);
    const attempt = await insertAttempt(tx, target, result, 'manual');
    const row = eq(d.id, target.deliveryId);
    const [delivery] = await tx.select({ eventType: d.eventType, attemptCount: d.attemptCount }).from(d).where(row);
    const cause = causeOf(attempt, delivery?.eventType ?? '', (delivery?.attemptCount ?? 0) + 1);
    if (result.ok) {
      await noteRecovery(tx, state, cause);
      await tx.update(w).set({ failingSince: null }).where(and(eq(w.id, target.webhookId), isNotNull(w.failingSince)));
      await tx
        .update(d)
        .set({ status: 'success', nextAttemptAt: null, leaseOwner: null, leaseUntil: null, attemptCount: sql`${d.attemptCount} + 1`, updatedAt: sql`now()` })
        .where(row);
    } else if (result.statusCode === 410) {
      await noteDisabled(tx, state, await disableWebhook(tx, target.webhookId, 'the endpoint answered 410 Gone'), cause);
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
