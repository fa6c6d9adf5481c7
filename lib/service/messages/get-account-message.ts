import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { attemptsAfter, createdNearId, createdSinceId } from '@/lib/service/messages/message-time';
import { selectDeliveries } from '@/lib/service/messages/select-deliveries';
import { accountMessageToJson, attemptToJson, deliveryToJson, type TAccountMessageDetailJson, type TAttemptJson } from '@/lib/service/webhooks/webhook-json';

/**
 * EXT GET /v1/messages/{id}: one message of the account by its `msg_` id or its `evt_` event id,
 * with the payload and one delivery per webhook it was queued for — an empty list when no webhook
 * was subscribed, which is the answer to "why was nothing sent?". Deliveries to webhooks deleted
 * since are kept: they were queued. 404 for any other id, or another account's.
 */
export async function getAccountMessage(
  accountId: string,
  id: string,
  { withAttempts = false }: { withAttempts?: boolean } = {},
): Promise<TAccountMessageDetailJson> {
  const m = schema.messages;
  const key = id.startsWith(ID_PREFIX.message) ? m.id : id.startsWith(ID_PREFIX.event) ? m.eventId : null;
  if (!key) throw messageNotFound(id);
  const db = await getDb();
  const [message] = await db
    .select()
    .from(m)
    .where(and(eq(m.accountId, accountId), eq(key, id), createdNearId(m.createdAt, id)));
  if (!message) throw messageNotFound(id);
  const d = schema.deliveries;
  const deliveries = await selectDeliveries(db, { withLastResponse: withAttempts, attemptsWithin: attemptsAfter(message.createdAt) })
    .where(and(eq(d.messageId, message.id), eq(d.accountId, accountId), createdNearId(d.createdAt, message.id), createdNearId(m.createdAt, message.id)))
    .orderBy(asc(d.createdAt), asc(d.webhookId));
  const attempts = withAttempts ? await attemptsByWebhook(message.id, accountId) : null;
  return {
    ...accountMessageToJson(message),
    payload: JSON.parse(message.payload) as unknown,
    deliveries: deliveries.map((v) =>
      attempts
        ? {
            ...deliveryToJson(v),
            lastAttempt: v.lastAttempt ? attemptToJson({ ...v.lastAttempt, response: v.lastAttempt.response ?? '' }, { withResponse: true }) : null,
            attempts: attempts.get(v.delivery.webhookId) ?? [],
          }
        : deliveryToJson(v),
    ),
  };
}

/** Every attempt of the message, per webhook, oldest first, without response bodies: one query. */
async function attemptsByWebhook(messageId: string, accountId: string): Promise<Map<string, TAttemptJson[]>> {
  const db = await getDb();
  const a = schema.attempts;
  const d = schema.deliveries;
  const { response: _response, deliveryId: _d, messageId: _m, accountId: _a, rolledUp: _r, ...columns } = getTableColumns(a);
  const rows = await db
    .select(columns)
    .from(a)
    // The webhooks from the message's deliveries, so the attempts' (webhook, message) index serves
    // it: attempts has no index on the message alone (a scan of every attempt, ~35 ms at 2M).
    .where(
      and(
        eq(a.messageId, messageId),
        inArray(
          a.webhookId,
          db
            .select({ id: d.webhookId })
            .from(d)
            .where(and(eq(d.messageId, messageId), createdNearId(d.createdAt, messageId))),
        ),
        eq(a.accountId, accountId),
        createdSinceId(a.createdAt, messageId),
      ),
    )
    .orderBy(asc(a.createdAt), asc(a.id));
  const out = new Map<string, TAttemptJson[]>();
  for (const { webhookId, ...row } of rows) out.set(webhookId, [...(out.get(webhookId) ?? []), attemptToJson(row)]);
  return out;
}

function messageNotFound(id: string): ApiError {
  return new ApiError('not_found', `No message with the id ${id}.`);
}
