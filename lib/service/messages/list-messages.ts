import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { parseQuery } from '@/lib/http/query';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { ZMessageFilters, type TMessageFilters } from '@/lib/service/webhooks/schemas';
import { deliveriesAt, webhookDeliveriesWhere } from './select-deliveries';
import { attemptToJson, messageToJson, type TAttemptJson, type TMessageJson } from '@/lib/service/webhooks/webhook-json';
import { newestFirst } from '@/lib/db/paging';
import { ID_CLOCK_SLACK_MS } from '@/lib/ids';

/** The EXT filters from the query string; a wrong value is a 400 naming the parameter. */
export function parseMessageFilters(searchParams: URLSearchParams): TMessageFilters {
  return parseQuery(searchParams, ZMessageFilters);
}

/**
 * The messages of one webhook, newest first: one row per delivery, so the status is this
 * webhook's. Paged by (createdAt, messageId) over the (webhook_id, created_at, message_id) index;
 * each row's newest attempt comes with its row; its payload only with `withContent=true`.
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
  // The page's keys by the webhook's index first, then its rows by them (deliveriesAt): in one statement the planner joined
  // every delivery of the webhook to its message and newest attempt before the sort and the limit (select-deliveries.ts).
  const keys = await db
    .select({ id: d.id, created_at: sql<string>`${d.createdAt}::text` })
    .from(d)
    .where(webhookDeliveriesWhere(accountId, webhookId, filters, cursor))
    .orderBy(...newestFirst(d.createdAt, d.messageId))
    .limit(limit + 1);
  const rows = keys.length ? await deliveriesAt(db, keys, { withPayload: filters.withContent }).orderBy(...newestFirst(d.createdAt, d.messageId)) : [];
  const attempts = filters.withAttempts
    ? await attemptsOf(
        db,
        webhookId,
        rows.slice(0, limit).map((r) => r.delivery),
      )
    : null;
  return pageOf(
    rows,
    limit,
    (r) => ({ createdAt: r.delivery.createdAt, id: r.delivery.messageId }),
    (r) => ({ ...messageToJson(r, r.payload ?? undefined), ...(attempts ? { attempts: attempts.get(r.delivery.messageId) ?? [] } : {}) }),
    scope,
  );
}

/**
 * Every attempt of these deliveries' messages to the webhook, oldest first, in one query (the attempts' (webhook, message,
 * time) index), between the oldest delivery's created_at (an attempt is made after its message) and now, give or take the
 * slack of a clock: the attempts partitions between alone are planned, not every one, nor those made ahead.
 */
export async function attemptsOf(db: Db, webhookId: string, deliveries: { messageId: string; createdAt: Date }[]): Promise<Map<string, TAttemptJson[]>> {
  const out = new Map<string, TAttemptJson[]>();
  if (!deliveries.length) return out;
  const messageIds = deliveries.map((x) => x.messageId);
  const since = new Date(Math.min(...deliveries.map((x) => new Date(x.createdAt).getTime())) - ID_CLOCK_SLACK_MS).toISOString();
  const until = new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString();
  const a = schema.attempts;
  const { response: _response, deliveryId: _d, messageId: _m, webhookId: _w, accountId: _a, rolledUp: _r, ...columns } = getTableColumns(a);
  const rows = await db
    .select({ ...columns, messageId: a.messageId })
    .from(a)
    .where(and(eq(a.webhookId, webhookId), inArray(a.messageId, messageIds), sql`${a.createdAt} between ${since}::timestamptz and ${until}::timestamptz`))
    .orderBy(asc(a.createdAt), asc(a.id));
  for (const { messageId, ...row } of rows) out.set(messageId, [...(out.get(messageId) ?? []), attemptToJson(row)]);
  return out;
}
