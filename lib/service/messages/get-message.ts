import { and, eq } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { attemptsAfter, createdNearId } from './message-time';
import { selectDeliveries } from './select-deliveries';
import { messageToJson, type TDeliveryRow, type TMessageJson, type TWebhookRow } from '@/lib/service/webhooks/webhook-json';

/** The webhook and its delivery of the message; 404 when either is not the account's. */
export async function getDelivery(
  accountId: string,
  webhookId: string,
  messageId: string,
  { db }: { db?: DbOrTx } = {},
): Promise<{ webhook: TWebhookRow; delivery: TDeliveryRow; payload: string; payloadPurgedAt: Date | null }> {
  const conn = db ?? (await getDb());
  const webhook = await getWebhook(accountId, webhookId, { db: conn });
  const d = schema.deliveries;
  const [row] = await conn
    .select({ delivery: d, payload: schema.messages.payload, payloadPurgedAt: schema.messages.payloadPurgedAt })
    .from(d)
    .innerJoin(schema.messages, and(eq(schema.messages.id, d.messageId), eq(schema.messages.createdAt, d.createdAt)))
    .where(theDelivery(accountId, webhookId, messageId));
  if (!row) throw messageNotFound(messageId);
  return { webhook, delivery: row.delivery, payload: row.payload, payloadPurgedAt: row.payloadPurgedAt };
}

/** The webhook's delivery of the message, its row and its message's read only near the id's time (message-time.ts). */
function theDelivery(accountId: string, webhookId: string, messageId: string) {
  const d = schema.deliveries;
  return and(
    eq(d.webhookId, webhookId),
    eq(d.messageId, messageId),
    eq(d.accountId, accountId),
    createdNearId(d.createdAt, messageId),
    createdNearId(schema.messages.createdAt, messageId),
  );
}

function messageNotFound(messageId: string): ApiError {
  return new ApiError('not_found', `No message with the id ${messageId} for this webhook.`);
}

/** Get message: this webhook's delivery of it, with the payload and the newest attempt. */
export async function getMessage(accountId: string, webhookId: string, messageId: string, { db }: { db?: DbOrTx } = {}): Promise<TMessageJson> {
  const conn = db ?? (await getDb());
  await getWebhook(accountId, webhookId, { db: conn });
  const [row] = await selectDeliveries(conn, { withPayload: true, attemptsWithin: attemptsAfter(messageId) }).where(
    theDelivery(accountId, webhookId, messageId),
  );
  if (!row) throw messageNotFound(messageId);
  return messageToJson(row, row.payload ?? undefined);
}
