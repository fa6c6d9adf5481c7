import { and, arrayContains, eq, isNull, ne, sql } from 'drizzle-orm';
import { ID_PREFIX, type TEventType } from '@/lib/constants';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { deliveries, messages, webhooks } from '@/lib/db/schema';
import { prefixedId } from '@/lib/ids';
import { notifyDeliveriesQueued } from '@/lib/service/delivery/wakeup';

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
};

export type TEmitted = { messageId: string; eventId: string };

/**
 * Queues an event inside the caller's transaction: one message and one due delivery per enabled,
 * subscribed webhook of the account. A real event's message is stored even when no webhook is
 * subscribed (zero deliveries), so that "why was nothing sent?" has an answer in GET /v1/messages.
 * A test event (`webhookId`) stores nothing and returns null when that webhook cannot take it.
 */
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput & { webhookId: string }): Promise<TEmitted | null>;
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput & { webhookId?: undefined }): Promise<TEmitted>;
export async function emitEvent(tx: DbOrTx, input: TEmitEventInput): Promise<TEmitted | null> {
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.accountId, input.accountId),
        eq(webhooks.disabled, false),
        isNull(webhooks.deletedAt),
        arrayContains(webhooks.eventTypes, [input.eventType]),
        input.webhookId ? eq(webhooks.id, input.webhookId) : undefined,
        input.excludeWebhookId ? ne(webhooks.id, input.excludeWebhookId) : undefined,
      ),
    );
  if (targets.length === 0 && input.webhookId !== undefined) return null;

  const messageId = prefixedId(ID_PREFIX.message);
  const eventId = prefixedId(ID_PREFIX.event);
  // One reading of the database's clock is both the message's timestamp and the moment its
  // deliveries fall due: a new message is due when made, never before, and the worker compares
  // next_attempt_at with that same clock.
  const createdAt = await databaseNow(tx);
  const body = JSON.stringify({ type: input.eventType, timestamp: createdAt.toISOString(), data: input.payload });
  const tags = [...new Set(input.tags)];
  await tx.insert(messages).values({ id: messageId, eventId, accountId: input.accountId, eventType: input.eventType, payload: body, tags, createdAt });
  if (targets.length > 0) {
    await tx.insert(deliveries).values(
      targets.map((w) => ({
        messageId,
        webhookId: w.id,
        accountId: input.accountId,
        eventType: input.eventType,
        status: 'pending',
        nextAttemptAt: createdAt,
        createdAt,
      })),
    );
    await notifyDeliveriesQueued(tx);
  }
  return { messageId, eventId };
}

/** The database's current time (not the transaction's start, which now() would give). */
async function databaseNow(tx: DbOrTx): Promise<Date> {
  const [row] = await queryRows<{ ms: number | string }>(tx, sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
  return new Date(Math.floor(Number(row.ms)));
}
