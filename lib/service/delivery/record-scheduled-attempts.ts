import { and, eq, inArray, sql } from 'drizzle-orm';
import { groupCommitWriter } from '@/lib/db/group-commit';
import { getDb, type Tx } from '@/lib/db/client';
import { prunedRows, queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { env } from '@/lib/env';
import { isOperationalEventType } from '@/lib/constants';
import { emitOperationalEvent } from '@/lib/service/events/emit-operational-event';
import { countAttempt } from '@/lib/metrics/count-attempt';
import { parseRetryAfter } from '@/lib/http/retry-after';
import { attemptValues, type TAttemptTarget, type TAttemptValues } from './attempt-values';
import type { TClaim } from './claim';
import { causeOf, endFailingStretches, noteDisabled, noteRecovery, noteWebhookFailure } from './failing-stretch';
import { lockWebhookStates, type TLockedWebhook } from './lock-webhook-states';
import { wakingTransaction } from './wake-workers';
import { nextRetryDelayMs } from './schedule';
import type { TSendResult } from './send-webhook';

// The worker's attempts, recorded in batches (group commit): the attempt rows, then each
// delivery's next state — done, a retry, or the end of its schedule.

const d = schema.deliveries;

type TScheduledAttempt = { claim: TClaim; url: string; result: TSendResult };
type TRecorded = TScheduledAttempt & { values: TAttemptValues };

const targetOf = ({ claim, url }: TScheduledAttempt): TAttemptTarget => ({
  deliveryId: claim.id,
  messageId: claim.messageId,
  webhookId: claim.webhookId,
  accountId: claim.accountId,
  url,
});

/** The claim's delivery, in its partition (its created_at named: it plans that one alone). */
const theDelivery = (claim: TClaim) => and(eq(d.id, claim.id), sql`${d.createdAt} = ${claim.createdAt}::timestamptz`);

/** The claims' deliveries (a lease lost, rare), in their partitions. */
const theDeliveries = (claims: TClaim[]) =>
  and(
    inArray(
      d.id,
      claims.map((c) => c.id),
    ),
    sql`${d.createdAt} = any(${sql.param(claims.map((c) => c.createdAt))}::timestamptz[])`,
  );

/** Written only while the lease is still this claim's (another worker may have taken an expired one). */
const ours = (claim: TClaim) => and(theDelivery(claim), eq(d.status, 'sending'), eq(d.leaseOwner, claim.leaseOwner));

/** Successes in three statements however many: the webhooks' failing stretches end, the deliveries are done. */
async function recordSuccesses(tx: Tx, items: TRecorded[], states: Map<string, TLockedWebhook>): Promise<void> {
  if (items.length === 0) return;
  await endFailingStretches(
    tx,
    items.map((i) => i.claim.webhookId),
  );
  const rows = sql.join(
    items.map(
      ({ claim }) =>
        sql`(${claim.id}::uuid, ${claim.createdAt}::timestamptz, ${claim.leaseOwner}::text, ${claim.scheduledAttemptCount + (claim.recoverRunId ? 0 : 1)}::int)`,
    ),
    sql`, `,
  );
  const done = await queryRows<{ id: string; event_type: string; attempt_count: number }>(
    tx,
    sql`update service.deliveries d set status = 'success', next_attempt_at = null, attempt_count = d.attempt_count + 1,
          scheduled_attempt_count = v.n, lease_owner = null, lease_until = null, updated_at = now()
        from (values ${rows}) as v(id, created_at, owner, n)
        where d.id = v.id and d.created_at = v.created_at and d.created_at = any(${sql.param(items.map((i) => i.claim.createdAt))}::timestamptz[])
          and d.status = 'sending' and d.lease_owner = v.owner
        returning d.id, d.event_type, d.attempt_count`,
  );
  const recorded = new Map(done.map((r) => [r.id, r]));
  const lost = items.filter((i) => !recorded.has(i.claim.id)).map((i) => i.claim);
  if (lost.length > 0)
    await tx
      .update(d)
      .set({ attemptCount: sql`${d.attemptCount} + 1` })
      .where(theDeliveries(lost));
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
  const delayMs =
    disabled || recovery
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
  if (!applied)
    [row] = await tx
      .update(d)
      .set({ attemptCount: sql`${d.attemptCount} + 1` })
      .where(theDelivery(claim))
      .returning(counted);
  const cause = causeOf(values, row?.eventType ?? '', row?.attemptCount ?? attemptNumber);
  const state = states.get(claim.webhookId);
  if (state && state.failingSince === null) state.failingSince = values.createdAt;
  await noteDisabled(tx, state, after, cause);
  if (applied && delayMs === null && !disabled && !recovery && !isOperationalEventType(cause.eventType)) {
    await emitOperationalEvent(tx, {
      type: 'message.attempt.exhausted',
      webhook: state ?? { id: claim.webhookId, accountId: claim.accountId, url: values.url, failingSince: null },
      cause,
    });
  }
}

// Every attempt of the batch succeeded and none of its webhooks is failing (the common case): one
// statement, its own transaction, writes the attempt rows and ends the deliveries. It locks the
// webhooks like the general path (same order), and writes nothing if one of them is failing: that
// success ends a failing stretch, which the general path records with its `webhook.recovered`.
// Sent to the driver as text with one array per column, so its text is the same for any batch.
export const HEALTHY_SUCCESSES = `
  with v as (
    select * from unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::timestamptz[],
                         $8::int[], $9::int[], $10::text[], $11::text[], $12::text[], $13::int[], $14::timestamptz[])
      as v(id, delivery_id, message_id, webhook_id, account_id, url, created_at,
           response_status_code, response_duration_ms, response, trigger_type, lease_owner, scheduled_n, delivery_created_at)),
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
    where d.id = v.delivery_id and d.created_at = v.delivery_created_at and d.created_at = any($14::timestamptz[])
      and d.status = 'sending' and d.lease_owner = v.lease_owner and (select yes from healthy)
    returning d.id)
  select (select yes from healthy) as healthy, coalesce((select array_agg(id) from done), '{}') as done`;

/** The all-success batch in one statement; false (nothing written) when one of its webhooks is failing. */
async function recordHealthySuccesses(items: TRecorded[]): Promise<boolean> {
  const v = items.map((i) => i.values);
  const [row] = await prunedRows<{ healthy: boolean; done: string[] }>(
    HEALTHY_SUCCESSES,
    [
      v.map((x) => x.id),
      v.map((x) => x.deliveryId),
      v.map((x) => x.messageId),
      v.map((x) => x.webhookId),
      v.map((x) => x.accountId),
      v.map((x) => x.url),
      v.map((x) => x.createdAt),
      v.map((x) => x.responseStatusCode),
      v.map((x) => x.responseDurationMs),
      v.map((x) => x.response),
      v.map((x) => x.triggerType),
      items.map((i) => i.claim.leaseOwner),
      items.map((i) => i.claim.scheduledAttemptCount + (i.claim.recoverRunId ? 0 : 1)),
      items.map((i) => i.claim.createdAt),
    ],
    'record_healthy_successes',
  );
  if (!row?.healthy) return false;
  // A lease lost meanwhile (another worker holds the delivery now): the attempt still counts.
  const done = new Set(row.done);
  const lost = items.filter((i) => !done.has(i.claim.id)).map((i) => i.claim);
  if (lost.length > 0)
    await (
      await getDb()
    )
      .update(d)
      .set({ attemptCount: sql`${d.attemptCount} + 1` })
      .where(theDeliveries(lost));
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
  await wakingTransaction(async (tx) => {
    const states = await lockWebhookStates(
      tx,
      items.map((i) => i.claim.webhookId),
    );
    await tx.insert(schema.attempts).values(recorded.map((r) => r.values));
    await recordSuccesses(
      tx,
      recorded.filter((i) => i.result.ok),
      states,
    );
    for (const item of recorded) if (!item.result.ok) await recordFailure(tx, item, states);
  });
  return items.map(() => undefined);
}

// One batch at a time: batches lock their webhooks' rows, so side by side they would mostly wait
// on each other; one at a time, the outcomes that finish meanwhile join the next batch.
const submitScheduled = groupCommitWriter('scheduled-attempts', recordScheduledAttempts, { postgresInFlight: 1 });

/** Records a worker's attempt; resolves once it is committed (with others that finished meanwhile). */
export function recordScheduledAttempt(claim: TClaim, url: string, result: TSendResult): Promise<void> {
  countAttempt(result, 'scheduled');
  return submitScheduled({ claim, url, result });
}

/**
 * A claimed delivery whose webhook was disabled or deleted meanwhile, or whose payload a donor erasure
 * or retention took, ends `failed`, unattempted; a gone payload is recorded as why (EXT retriesStopped).
 */
export async function abandonClaim(claim: TClaim): Promise<void> {
  const db = await getDb();
  const reason = sql<string | null>`(select case when m.erased_at is not null then 'donor_erased' when m.payload_purged_at is not null then 'payload_purged' end
    from service.messages m where m.id = "service"."deliveries"."message_id" and m.created_at = "service"."deliveries"."created_at")`;
  await db
    .update(d)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: sql`now()`,
      stopReason: reason,
      stoppedAt: sql`case when ${reason} is not null then now() end`,
    })
    .where(ours(claim));
}
