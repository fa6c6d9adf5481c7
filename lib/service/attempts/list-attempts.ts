import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { getDelivery } from '@/lib/service/messages/get-message';
import { createdSinceId } from '@/lib/service/messages/message-time';
import { attemptToJson, type TAttemptJson } from '@/lib/service/webhooks/webhook-json';
import { olderThan, newestFirst } from '@/lib/db/paging';

/** The attempts to deliver one message to one webhook, newest first, without response bodies. */
export async function listAttempts(
  accountId: string,
  webhookId: string,
  messageId: string,
  { limit, cursor, scope }: TPageParams,
): Promise<{ results: TAttemptJson[]; nextPageToken?: string }> {
  const db = await getDb();
  await getDelivery(accountId, webhookId, messageId, { db });
  const a = schema.attempts;
  const rows = await db
    .select()
    .from(a)
    .where(and(eq(a.webhookId, webhookId), eq(a.messageId, messageId), createdSinceId(a.createdAt, messageId), olderThan(a.createdAt, a.id, cursor)))
    .orderBy(...newestFirst(a.createdAt, a.id))
    .limit(limit + 1);
  return pageOf(
    rows,
    limit,
    (r) => ({ createdAt: r.createdAt, id: r.id }),
    (r) => attemptToJson(r),
    scope,
  );
}
