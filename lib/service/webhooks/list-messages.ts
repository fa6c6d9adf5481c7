import { and, desc, eq, gt, lt } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { validationError } from '@/lib/http/errors';
import { pageOf, type TPageParams } from '@/lib/http/paging';
import { getWebhook } from './get-webhook';
import { ZMessageFilters, type TMessageFilters } from './schemas';
import { messageToJson, type TMessageJson } from './webhook-json';
import { olderThan } from '@/lib/db/paging';

/** The EXT filters from the query string; a wrong value is a 400 naming the parameter. */
export function parseMessageFilters(searchParams: URLSearchParams): TMessageFilters {
  const raw: Record<string, string> = {};
  for (const key of ['status', 'eventType', 'before', 'after'] as const) {
    const value = searchParams.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  const parsed = ZMessageFilters.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

/**
 * The messages of one webhook, newest first: one row per delivery, so the status is this
 * webhook's. Paged by (createdAt, messageId) over the (webhook_id, created_at, message_id) index.
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
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.webhookId, webhookId),
        eq(d.accountId, accountId),
        filters.status ? eq(d.status, filters.status) : undefined,
        filters.eventType ? eq(d.eventType, filters.eventType) : undefined,
        filters.before ? lt(d.createdAt, new Date(filters.before)) : undefined,
        filters.after ? gt(d.createdAt, new Date(filters.after)) : undefined,
        olderThan(d.createdAt, d.messageId, cursor),
      ),
    )
    .orderBy(desc(d.createdAt), desc(d.messageId))
    .limit(limit + 1);
  return pageOf(rows, limit, (r) => ({ createdAt: r.createdAt, id: r.messageId }), (r) => messageToJson(r), scope);
}
