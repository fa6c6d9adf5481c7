import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { webhookToJson, type TWebhookJson } from './webhook-json';
import { olderThan, newestFirst } from '@/lib/db/paging';

/** The account's live webhooks, newest first, one page. */
export async function listWebhooks(accountId: string, { limit, cursor, scope }: TPageParams): Promise<{ results: TWebhookJson[]; nextPageToken?: string }> {
  const db = await getDb();
  const w = schema.webhooks;
  const rows = await db
    .select()
    .from(w)
    .where(and(eq(w.accountId, accountId), isNull(w.deletedAt), olderThan(w.createdAt, w.id, cursor)))
    .orderBy(...newestFirst(w.createdAt, w.id))
    .limit(limit + 1);
  return pageOf(rows, limit, (r) => ({ createdAt: r.createdAt, id: r.id }), webhookToJson, scope);
}
