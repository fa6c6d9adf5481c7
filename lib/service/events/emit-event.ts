import type { SQL } from 'drizzle-orm';
import { ID_PREFIX, type TEventType } from '@/lib/constants';
import { type DbOrTx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { jsonbCanHold } from '@/lib/db/search-json';
import { prefixedId } from '@/lib/ids';
import { enqueueEvent } from '@/lib/service/delivery/enqueue';
import { wakeAfterCommit } from '@/lib/service/delivery/wake-workers';
import { fanoutWebhooks } from '@/lib/service/webhooks/fanout-targets';

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
 * Queues an event inside the caller's transaction (its owner wakes the workers once it commits:
 * wakingTransaction, wake-workers.ts): one message and one due delivery per enabled,
 * subscribed webhook of the account. A real event's message is stored even when no webhook is
 * subscribed (zero deliveries), so that "why was nothing sent?" has an answer in GET /v1/messages.
 * A test event (`webhookId`) stores nothing and returns null when that webhook cannot take it.
 *
 * One statement (it runs on every grant): lib/service/delivery/enqueue.ts.
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
  // account's subscribed webhooks from the process's cache (fanout-targets.ts); the statement checks
  // each target's row as it queues, so a stale entry can only miss one created or subscribed within its bound.
  const to = input.webhookId
    ? { only: input.webhookId }
    : input.excludeWebhookId
      ? { except: input.excludeWebhookId }
      : { among: (await fanoutWebhooks(input.accountId, tx)).filter((w) => w.eventTypes.includes(input.eventType)).map((w) => w.id) };
  const data = JSON.stringify(input.payload ?? null);
  const [row] = await queryRows<{ stored: number | string; queued: number | string }>(
    tx,
    enqueueEvent({
      accountId: input.accountId,
      eventType: input.eventType,
      messageId,
      eventId,
      data,
      searchable: jsonbCanHold(data),
      tags: [...new Set(input.tags)],
      to,
      guard: input.guard,
    }),
  );
  if (Number(row.queued) > 0) await wakeAfterCommit(tx);
  if (Number(row.stored) === 0) return null;
  return { messageId, eventId };
}
