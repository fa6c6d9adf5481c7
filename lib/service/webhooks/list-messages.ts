import { and, eq } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { parseQuery } from '@/lib/http/query';
import { getWebhook } from './get-webhook';
import { ZMessageFilters, type TMessageFilters } from './schemas';
import { selectDeliveries } from './select-deliveries';
import { messageToJson, type TMessageJson } from './webhook-json';
import { createdWithin, olderThan, newestFirst } from '@/lib/db/paging';

/** The EXT filters from the query string; a wrong value is a 400 naming the parameter. */
export function parseMessageFilters(searchParams: URLSearchParams): TMessageFilters {
  return parseQuery(searchParams, ZMessageFilters);
}

/**
 * The messages of one webhook, newest first: one row per delivery, so the status is this
 * webhook's. Paged by (createdAt, messageId) over the (webhook_id, created_at, message_id) index;
 * each row's newest attempt comes from the same query; its payload only with `withContent=true`.
 */
export async function listMessages(
  accountId: string,
  webhookId: string,
  { limit, cursor, scope }: TPageParams,
  filters: TMessageFilters,
): Promise<{ results: TMessageJson[]; nextPageToken?: string }> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const d = schema.deliveries;
  const rows = await selectDeliveries(db, { withPayload: filters.withContent })
    .where(
      and(
        eq(d.webhookId, webhookId),
        eq(d.accountId, accountId),
        filters.status ? eq(d.status, filters.status) : undefined,
        filters.eventType ? eq(d.eventType, filters.eventType) : undefined,
        createdWithin(d.createdAt, filters),
        olderThan(d.createdAt, d.messageId, cursor),
      ),
    )
    .orderBy(...newestFirst(d.createdAt, d.messageId))
    .limit(limit + 1);
  return pageOf(rows, limit, (r) => ({ createdAt: r.delivery.createdAt, id: r.delivery.messageId }), (r) => messageToJson(r, r.payload ?? undefined), scope);
}
