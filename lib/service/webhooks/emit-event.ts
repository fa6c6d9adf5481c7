import { and, arrayContains, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { ID_PREFIX, type TEventType } from '@/lib/constants';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { deliveries, messages, webhooks } from '@/lib/db/schema/service';
import { jsonbCanHold } from '@/lib/db/search-json';
import { prefixedId } from '@/lib/ids';
import { DELIVERIES_CHANNEL } from '@/lib/service/delivery/wakeup';
import { fanoutWebhooks } from './fanout-targets';

export type TEmitEventInput = {
  accountId: string;
  eventType: TEventType;
  /** The event's `data` (e.g. the Grant JSON); it is wrapped as `{type, timestamp, data}`. */
  payload: unknown;
  /** What the event is about, to find it by (GET /v1/messages?tag=…): `grant:<id>`, `test`, … */
  tags: string[];
  /** Only this webhook (test events); it must still be enabled and subscribed. */
  webhookId?: string;
  /** Never this webhook: an operational event is not delivered to the webhook it is about. */
  excludeWebhookId?: string;
  /**
   * A write (`insert … returning …`) run first, in the same statement: the event is stored only if
   * it returns a row. A grant and its event are written together this way, in one round trip,
   * both or neither.
   */
  guard?: SQL;
};

export type TEmitted = { messageId: string; eventId: string };

/**
 * Queues an event inside the caller's transaction: one message and one due delivery per enabled,
 * subscribed webhook of the account. A real event's message is stored even when no webhook is
 * subscribed (zero deliveries), so that "why was nothing sent?" has an answer in GET /v1/messages.
 * A test event (`webhookId`) stores nothing and returns null when that webhook cannot take it.
 *
 * One statement (it runs on every grant): the subscribed webhooks, one reading of the database's
 * clock, the message, its deliveries and the worker's wake-up (pg_notify, sent at commit).
 * The clock is clock_timestamp() (now() would be the transaction's start), truncated to the
 * millisecond: it is both the body's `timestamp` and the moment the deliveries fall due, so a new
 * message is due when made, never before, and the worker compares next_attempt_at with that clock.
 */
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput & { webhookId: string }): Promise<TEmitted | null>;
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput & { guard: SQL }): Promise<TEmitted | null>;
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput & { webhookId?: undefined; guard?: undefined }): Promise<TEmitted>;
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput): Promise<TEmitted | null> {
  const messageId = prefixedId(ID_PREFIX.message);
  const eventId = prefixedId(ID_PREFIX.event);
  // A test event reads its one webhook; an operational event (excludeWebhookId) the account's rows
  // themselves: it is emitted by the transaction that has just disabled or recovered a webhook, and
  // a read of it must not fill the cache with what a rollback may undo. Any other event takes the
  // account's subscribed webhooks from the process's cache (fanout-targets.ts). Each target's row
  // is checked as it is queued either way, so a stale entry never queues a delivery for a webhook
  // disabled, deleted or no longer subscribed: it can only miss one created or subscribed within its bound.
  const subscribed = and(
    eq(webhooks.accountId, input.accountId),
    eq(webhooks.disabled, false),
    isNull(webhooks.deletedAt),
    arrayContains(webhooks.eventTypes, [input.eventType]),
    input.webhookId
      ? eq(webhooks.id, input.webhookId)
      : input.excludeWebhookId
        ? ne(webhooks.id, input.excludeWebhookId)
        : sql`${webhooks.id} in (select jsonb_array_elements_text(${JSON.stringify(
            (await fanoutWebhooks(input.accountId, tx)).filter((w) => w.eventTypes.includes(input.eventType)).map((w) => w.id),
          )}::jsonb))`,
  );
  const data = JSON.stringify(input.payload ?? null);
  const searchable = jsonbCanHold(data);
  // The body is JSON.stringify({type, timestamp, data}) spelled out, so the timestamp can be the
  // statement's own clock reading: to_char gives toISOString()'s format (ms precision, Z).
  const [row] = await queryRows<{ stored: number | string }>(
    tx,
    sql`with guard as (${input.guard ?? sql`select 1`}),
      clock as (select date_trunc('milliseconds', clock_timestamp()) as t),
      targets as (select ${webhooks.id} as id from ${webhooks} where ${subscribed}),
      message as (
        insert into ${messages} (id, event_id, account_id, event_type, payload, payload_json, tags, created_at)
        select ${messageId}, ${eventId}, ${input.accountId}, ${input.eventType}, body.text,
          -- the jsonb copy payload search reads (lib/db/search-json.ts); 'null' where jsonb cannot hold it
          case when ${searchable}::boolean then body.text::jsonb else 'null'::jsonb end,
          array(select jsonb_array_elements_text(${JSON.stringify([...new Set(input.tags)])}::jsonb)), clock.t
        from clock, lateral (select ${`{"type":${JSON.stringify(input.eventType)},"timestamp":"`} || to_char(clock.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ${`","data":${data}}`} as text) body
        where exists (select 1 from guard) and (${input.webhookId ?? null}::text is null or exists (select 1 from targets))
        returning created_at),
      queued as (
        insert into ${deliveries} (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
        select ${messageId}, targets.id, ${input.accountId}, ${input.eventType}, 'pending', message.created_at, message.created_at
        from targets, message
        returning 1),
      wake as (select pg_notify(${DELIVERIES_CHANNEL}, '') from (select 1 from queued limit 1) q)
    select (select count(*) from message) as stored, (select count(*) from wake) as woken`,
  );
  if (Number(row.stored) === 0) return null;
  return { messageId, eventId };
}
