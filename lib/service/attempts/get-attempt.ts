import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { payloadRetentionOf } from '../retention/account-retention';
import { createdNearId } from '@/lib/service/messages/message-time';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { attemptToJson, type TAttemptJson } from '@/lib/service/webhooks/webhook-json';

/** One attempt with its response body; `messageId` narrows it when the path names the message. */
export async function getAttempt(accountId: string, webhookId: string, attemptId: string, messageId?: string): Promise<TAttemptJson> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const a = schema.attempts;
  const [row] = await db
    .select()
    .from(a)
    .where(
      and(
        eq(a.id, attemptId),
        eq(a.webhookId, webhookId),
        eq(a.accountId, accountId),
        messageId !== undefined ? eq(a.messageId, messageId) : undefined,
        // Its own id's second: an attempt's created_at is its sender's clock, read as its id is made.
        createdNearId(a.createdAt, attemptId),
      ),
    );
  if (!row) throw new ApiError('not_found', `No attempt with the id ${attemptId} for this webhook.`);
  const payloadRetentionMs = row.responsePurgedAt ? await payloadRetentionOf(accountId) : undefined;
  return attemptToJson(row, { withResponse: true, payloadRetentionMs });
}
