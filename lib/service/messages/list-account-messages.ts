import { and, eq, sql } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { createdWithin, olderThan, newestFirst } from '@/lib/db/paging';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { accountMessageToJson, type TAccountMessageJson } from '@/lib/service/webhooks/webhook-json';
import type { TAccountMessageFilters } from './schemas';

/**
 * EXT GET /v1/messages: the account's messages newest first, whatever webhooks they went to (none
 * included). `tag` is exact membership (`tags @> array[tag]`, served by the GIN index on tags);
 * `delivered` asks whether any delivery of the message succeeded (the deliveries' (message, webhook) index).
 */
export async function listAccountMessages(
  accountId: string,
  { limit, cursor, scope }: TPageParams,
  filters: TAccountMessageFilters,
): Promise<{ results: TAccountMessageJson[]; nextPageToken?: string }> {
  const db = await getDb();
  const m = schema.messages;
  const d = schema.deliveries;
  const delivered = sql`select 1 from ${d} where ${d.messageId} = ${m.id} and ${d.status} = 'success'`;
  const rows = await db
    .select({ id: m.id, eventId: m.eventId, eventType: m.eventType, createdAt: m.createdAt, tags: m.tags })
    .from(m)
    .where(
      and(
        eq(m.accountId, accountId),
        filters.tag !== undefined ? sql`${m.tags} @> array[${filters.tag}]::text[]` : undefined,
        filters.eventType ? eq(m.eventType, filters.eventType) : undefined,
        createdWithin(m.createdAt, filters),
        filters.delivered === undefined ? undefined : filters.delivered ? sql`exists (${delivered})` : sql`not exists (${delivered})`,
        olderThan(m.createdAt, m.id, cursor),
      ),
    )
    .orderBy(...newestFirst(m.createdAt, m.id))
    .limit(limit + 1);
  return pageOf(rows, limit, (r) => r, accountMessageToJson, scope);
}
