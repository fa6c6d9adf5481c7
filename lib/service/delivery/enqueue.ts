import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { currentTraceparent } from '@/lib/telemetry/spans';

// Where work for the delivery workers is queued: the one place that writes `service.messages` and
// `service.deliveries` rows. A column added to either table is added here, once: emit-event.ts
// (every event, in a transaction), insert-grant-event.ts (POST /v1/grants' fixed statement, the same
// text with placeholders) and replay-missing.ts (an existing message's delivery) all build their
// statements from these. They write and return; whoever queued wakes the workers once committed
// (wake-workers.ts).

/** The channel a NOTIFY on which tells every listening worker that deliveries are due (wake-workers.ts sends it). */
export const DELIVERIES_CHANNEL = 'gc_deliveries';

/** A value, or a placeholder filled per call (a statement whose text is made once: lib/service/grants/insert-grant-event.ts). */
type TParam<T> = T | Placeholder;

export type TEnqueueEvent = {
  accountId: TParam<string>;
  eventType: TParam<string>;
  messageId: TParam<string>;
  eventId: TParam<string>;
  /** The event's `data` as JSON text; the body is `{type, timestamp, data}`. */
  data: TParam<string>;
  /** Whether jsonb can hold the body (lib/db/search-json.ts): the copy payload search reads, or JSON null. */
  searchable: TParam<boolean>;
  tags: TParam<string[]>;
  /**
   * Which of the account's enabled webhooks subscribed to the event type get a delivery: among these
   * ids (the fan-out cache's list), only this one (a test event: nothing is stored when it cannot take
   * it), or all but this one (an operational event is not sent to the webhook it is about). Each
   * target's row is checked here, so a stale list never queues for a webhook disabled, deleted or
   * unsubscribed since.
   */
  to: { among: TParam<string[]> } | { only: TParam<string> } | { except: TParam<string> };
  /** A write (`insert … returning …`) run first: the event is stored only if it returns a row. */
  guard?: SQL;
  /** The traceparent its attempts link to (lib/telemetry/spans.ts): the active span's when left out. */
  traceParent?: TParam<string | null>;
};

/** One parameter, an array included (drizzle would spread a bare array into a list). */
const param = <T>(value: TParam<T>) => (value instanceof Placeholder ? value : sql.param(value));

/**
 * The statement that stores one message and one due delivery per target, after its guard; it returns
 * `stored` (0 or 1) and `queued` (its deliveries: the caller wakes the workers once committed,
 * wake-workers.ts). One reading of the
 * database's clock, clock_timestamp() (now() is the transaction's start) truncated to the
 * millisecond, is both the body's `timestamp` and the moment the deliveries fall due: a new message
 * is due when made, never before, and the worker compares next_attempt_at with that clock.
 */
export function enqueueEvent(e: TEnqueueEvent): SQL {
  const [account, type, messageId] = [param(e.accountId), param(e.eventType), param(e.messageId)];
  const target =
    'among' in e.to
      ? sql`id = any(${param(e.to.among)}::text[])`
      : 'only' in e.to
        ? sql`id = ${param(e.to.only)}::text`
        : sql`id <> ${param(e.to.except)}::text`;
  return sql`with guard as (${e.guard ?? sql`select 1`}),
    clock as (select date_trunc('milliseconds', clock_timestamp()) as t),
    targets as (
      select id from service.webhooks
      where account_id = ${account}::uuid and not disabled and deleted_at is null and event_types @> array[${type}::text] and ${target}),
    message as (
      insert into service.messages (id, event_id, account_id, event_type, payload, payload_json, tags, created_at, trace_parent)
      select ${messageId}::text, ${param(e.eventId)}::text, ${account}::uuid, ${type}::text, body.text,
        case when ${param(e.searchable)}::boolean then body.text::jsonb else 'null'::jsonb end, ${param(e.tags)}::text[], clock.t,
        ${param(e.traceParent === undefined ? currentTraceparent() : e.traceParent)}::text
      from clock, lateral (select '{"type":' || to_json(${type}::text)::text || ',"timestamp":"'
        || to_char(clock.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","data":' || ${param(e.data)}::text || '}' as text) body
      where exists (select 1 from guard)${'only' in e.to ? sql` and exists (select 1 from targets)` : sql``}
      returning created_at),
    queued as (
      insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
      select ${messageId}::text, targets.id, ${account}::uuid, ${type}::text, 'pending', message.created_at, message.created_at
      from targets, message
      returning 1)
    select (select count(*) from message) as stored, (select count(*) from queued) as queued`;
}

/**
 * Deliveries of messages already stored to one webhook, due now, carrying the run that queued them
 * (replay-missing): `messages` selects `id, event_type, created_at`. A message the webhook already
 * has a delivery of is left alone: its delivery has the message's created_at, as this one would, and the
 * one-per-pair index holds it (partitioned by created_at: migration 0039). Returns the new deliveries' ids; the caller wakes the workers.
 */
export function enqueueExisting(q: { accountId: string; webhookId: string; runId: string; messages: SQL }): SQL {
  return sql`insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, recover_run_id, created_at)
    select x.id, ${q.webhookId}, ${q.accountId}::uuid, x.event_type, 'pending', now(), ${q.runId}, x.created_at
    from (${q.messages}) x
    on conflict (message_id, webhook_id, created_at) do nothing
    returning id`;
}
