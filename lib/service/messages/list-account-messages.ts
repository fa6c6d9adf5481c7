import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { containmentDocument, excerptAround } from '@/lib/db/search-json';
import { getDb } from '@/lib/db/client';
import { driverRows, queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { createdWithin, olderThan, newestFirst } from '@/lib/db/paging';
import { searchBack } from '@/lib/db/search-back';
import { env } from '@/lib/env';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { accountMessageToJson, type TAccountMessageJson } from '@/lib/service/webhooks/webhook-json';
import type { TAccountMessageFilters } from './schemas';

/** A page of the account's messages; with a payload filter whose search ran out of SEARCH_BUDGET_MS, how far back it got. */
export type TAccountMessagePage = { results: TAccountMessageJson[]; nextPageToken?: string; partial?: true; searchedUntil?: string };

/**
 * EXT GET /v1/messages: the account's messages newest first, whatever webhooks they went to (none
 * included). `tag` is exact membership (`tags @> array[tag]`, served by the GIN index on tags);
 * `delivered` asks whether any delivery of the message succeeded (the deliveries' (message, webhook) index);
 * the payload filters find messages by what they carry (payloadFilter).
 */
export async function listAccountMessages(
  accountId: string,
  { limit, cursor, scope }: TPageParams,
  filters: TAccountMessageFilters,
): Promise<TAccountMessagePage> {
  const db = await getDb();
  const m = schema.messages;
  const d = schema.deliveries;
  const delivered = sql`select 1 from ${d} where ${d.messageId} = ${m.id} and ${d.createdAt} = ${m.createdAt} and ${d.status} = 'success'`;
  const payload = payloadFilter(filters);
  const within = and(eq(m.accountId, accountId), createdWithin(m.createdAt, filters), olderThan(m.createdAt, m.id, cursor));
  const page = (only?: SQL, n = limit + 1) =>
    db
      .select({ id: m.id, eventId: m.eventId, eventType: m.eventType, createdAt: m.createdAt, tags: m.tags, ...(payload ? { matched: payload.matched } : {}) })
      .from(m)
      .where(
        and(
          within,
          filters.tag !== undefined ? sql`${m.tags} @> array[${filters.tag}]::text[]` : undefined,
          filters.eventType ? eq(m.eventType, filters.eventType) : undefined,
          payload?.where,
          filters.delivered === undefined ? undefined : filters.delivered ? sql`exists (${delivered})` : sql`not exists (${delivered})`,
          only,
        ),
      )
      .orderBy(...newestFirst(m.createdAt, m.id))
      .limit(n);
  type TRow = Awaited<ReturnType<typeof page>>[number];
  let rows: TRow[];
  let searched: { partial: boolean; searchedUntil: Date | null } = { partial: false, searchedUntil: null };
  if (payload && filters.after) {
    // A payload filter: newest first in time slices within SEARCH_BUDGET_MS (lib/db/search-back.ts),
    // each slice planned on its own (the GIN index for a rare value, the time index for common words).
    const top = [filters.before && new Date(filters.before), cursor && new Date(cursor.t)].filter((d): d is Date => Boolean(d));
    const found = await searchBack<TRow>({
      since: new Date(filters.after),
      top: top.length ? new Date(Math.min(...top.map((d) => d.getTime()))) : new Date(),
      limit: limit + 1,
      budgetMs: env.SEARCH_BUDGET_MS,
      nthNewest: async (n) => {
        const [row] = await queryRows<{ at: Date | string }>(
          db,
          sql`select ${m.createdAt} as at from ${m} where ${within} order by ${sql.join(newestFirst(m.createdAt, m.id), sql`, `)} offset ${n - 1} limit 1`,
        );
        return row ? new Date(row.at) : null;
      },
      slice: (from, to, max) => page(and(gte(m.createdAt, from), to ? lt(m.createdAt, to) : undefined), max),
    });
    rows = found.rows;
    searched = found;
  } else if (filters.tag !== undefined) {
    // A tag's ids are taken from its GIN index first (an InitPlan), and only those rows are sorted:
    // the planner reads a tag (each grant's own) as 0.5 % of the rows, so it would otherwise walk the
    // account's messages newest first looking for it (56 ms at 100k). The newest RECENT of the window
    // are tried first (a common tag fills the page there).
    const newest = sql`select ${m.id} from ${m} where ${within} order by ${sql.join(newestFirst(m.createdAt, m.id), sql`, `)} limit ${RECENT}`;
    rows = await page(sql`${m.id} in (${newest})`);
    if (rows.length <= limit) {
      const [{ more }] = await queryRows<{ more: boolean }>(db, sql`select exists (select 1 from ${m} where ${within} offset ${RECENT}) as more`);
      if (more)
        rows = await page(
          sql`${m.id} = any(array(select ${m.id} from ${m} where ${m.accountId} = ${accountId} and ${m.tags} @> array[${filters.tag}]::text[]))`,
        );
    }
  } else rows = await page();
  const webhooksOf = filters.withWebhooks ? await webhookIdsOf(rows.slice(0, limit).map((r) => r.id)) : null;
  const toJson = (r: (typeof rows)[number]) => ({
    ...accountMessageToJson(r),
    ...(payload && 'matched' in r ? { excerpt: excerptAround(String(r.matched ?? ''), payload.needle) } : {}),
    ...(webhooksOf ? { webhookIds: webhooksOf.get(r.id) ?? [] } : {}),
  });
  const listed = await pageOf(rows, limit, (r) => r, toJson, scope);
  return searched.partial && searched.searchedUntil ? { ...listed, partial: true, searchedUntil: searched.searchedUntil.toISOString() } : listed;
}

/** `withWebhooks=true`: the webhooks each message of a page was queued for, in one query (deliveries' (message, webhook) index). */
async function webhookIdsOf(messageIds: string[]): Promise<Map<string, string[]>> {
  if (!messageIds.length) return new Map();
  const rows = await driverRows<{ messageId: string; webhookIds: string[] }>(
    `select message_id as "messageId", array_agg(webhook_id order by webhook_id) as "webhookIds" from service.deliveries where message_id = any($1::text[]) group by message_id`,
    [messageIds],
  );
  return new Map(rows.map((r) => [r.messageId, r.webhookIds]));
}

/** A text[] literal of path keys (PATH_SEGMENT allows no quote, comma or brace). */
const textArray = (keys: string[]) => `{${keys.map((k) => `"${k}"`).join(',')}}`;

/** A tag filter tries the window's newest this many messages first. */
const RECENT = 2000;

/**
 * The payload filters (EXT): `payloadPath` + `payloadEquals` as jsonb containment, `payloadText` as
 * a phrase among the payload's stored words (payload_words, migration 0020), each served by its GIN
 * index within the required window; `matched` is what the excerpt is cut from (the object holding the key,
 * or the whole payload).
 */
function payloadFilter(filters: TAccountMessageFilters): { where: SQL; matched: SQL<string>; needle: string } | null {
  const m = schema.messages;
  if (filters.payloadPath !== undefined && filters.payloadEquals !== undefined) {
    const keys = filters.payloadPath.split('.');
    const key = keys[keys.length - 1];
    return {
      where: sql`${m.payloadJson} @> ${containmentDocument(filters.payloadPath, filters.payloadEquals)}::jsonb`,
      matched: sql<string>`(${m.payloadJson} #> ${textArray(keys.slice(0, -1))}::text[])::text`,
      needle: JSON.stringify(key),
    };
  }
  if (filters.payloadText !== undefined) {
    const phrase = filters.payloadText;
    return {
      // The words in order within one value, or across the donor's first and last name: the
      // receipts' phraseMatchSql (lib/db/search-json.ts), written with drizzle's parameters.
      where: sql`(${m.payloadWords} @@ phraseto_tsquery('simple', ${phrase}) or (${m.payloadWords} @@ plainto_tsquery('simple', ${phrase})
        and to_tsvector('simple', concat_ws(' ', ${m.payloadJson}#>>'{data,firstName}', ${m.payloadJson}#>>'{data,lastName}')) @@ phraseto_tsquery('simple', ${phrase})))`,
      matched: sql<string>`${m.payloadJson}::text`,
      needle: filters.payloadText.trim().split(/\s+/)[0],
    };
  }
  return null;
}
