import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { ZTimestamp } from '@/lib/service/webhooks/schemas';
import { deliveriesAt } from './select-deliveries';
import { attemptToJson, messageToJson, type TMessageJson } from '@/lib/service/webhooks/webhook-json';
import { idWindow } from '@/lib/ids';

// EXT: the account's troubled (message, webhook) pairs, whatever webhook — what a problems view
// lists — by index, not by scan:
//   failed    the sender gave up (deliveries_webhook_status_idx: webhook, status, time);
//   retrying  still pending or sending after two or more attempts (deliveries_retrying_idx, partial).
// GET /v1/webhooks/messages?state= lists them newest first, one webhook's index range per webhook
// merged in one statement (a page costs pageLimit entries per webhook at most, whatever the
// history); GET /v1/webhooks/messages/counts counts each webhook's, exactly up to `cap`.

export const TROUBLE_STATES = ['failed', 'retrying'] as const;
export type TTroubleState = (typeof TROUBLE_STATES)[number];

export const MAX_MESSAGE_FILTER = 100;

export const ZTroubledQuery = z.object({
  state: z.enum(TROUBLE_STATES, { message: `must be one of: ${TROUBLE_STATES.join(', ')}` }),
  before: ZTimestamp.optional(),
  after: ZTimestamp.optional(),
  /** true: each with its payload and its newest attempt's response body — what a problems page shows, without a call per row. */
  withContent: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  /** Only these messages (ids, comma-separated, at most MAX_MESSAGE_FILTER): which of them are in this state, at any webhook. */
  message: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z.array(z.string().max(200)).min(1, 'must name at least one message id').max(MAX_MESSAGE_FILTER, `must name at most ${MAX_MESSAGE_FILTER} message ids`),
    )
    .optional(),
});
export type TTroubledQuery = z.output<typeof ZTroubledQuery>;

export const MAX_COUNT_CAP = 10_000;
export const ZTroubledCountsQuery = z.object({
  before: ZTimestamp.optional(),
  after: ZTimestamp.optional(),
  cap: z.coerce
    .number({ message: `must be an integer from 1 to ${MAX_COUNT_CAP}` })
    .int({ message: `must be an integer from 1 to ${MAX_COUNT_CAP}` })
    .min(1)
    .max(MAX_COUNT_CAP)
    .default(1000),
});
export type TTroubledCountsQuery = z.output<typeof ZTroubledCountsQuery>;

export type TTroubledMessageJson = TMessageJson & { webhookId: string };
export type TTroubleCount = { count: number; capped: boolean };
export type TTroubledCountsJson = { cap: number; results: { webhookId: string; failed: TTroubleCount; retrying: TTroubleCount }[] };

/** The predicate of each state, written as its index's (the planner must see it implied). */
function stateIs(state: TTroubleState): SQL {
  return state === 'failed' ? sql`d.status = 'failed'` : sql`d.status in ('pending', 'sending') and d.attempt_count >= 2`;
}

function within({ before, after }: { before?: string; after?: string }): SQL {
  return sql`${before ? sql`and d.created_at < ${new Date(before).toISOString()}::timestamptz` : sql``} ${after ? sql`and d.created_at > ${new Date(after).toISOString()}::timestamptz` : sql``}`;
}

const KEY_SEPARATOR = ' ';

/** Deliveries of these messages were made when their messages were (their created_at is the message's): the ids' windows (lib/ids.ts). */
function madeWithin(messageIds: string[]): SQL {
  const windows = messageIds.map((id) => idWindow(id));
  if (windows.some((w) => w === null)) return sql``;
  const from = Math.min(...windows.map((w) => w!.from.getTime()));
  const to = Math.max(...windows.map((w) => w!.to.getTime()));
  return sql`and d.created_at >= ${new Date(from).toISOString()}::timestamptz and d.created_at < ${new Date(to).toISOString()}::timestamptz`;
}

export async function listTroubledMessages(
  accountId: string,
  { limit, cursor, scope }: TPageParams,
  query: TTroubledQuery,
): Promise<{ results: TTroubledMessageJson[]; nextPageToken?: string }> {
  const db = await getDb();
  const [cm, cw] = cursor ? cursor.id.split(KEY_SEPARATOR) : [];
  // (created_at, message_id, webhook_id) below the cursor: the first two as the index condition.
  const after = cursor
    ? sql`and (d.created_at, d.message_id) <= (${cursor.t}::timestamptz, ${cm}) and not (d.created_at = ${cursor.t}::timestamptz and d.message_id = ${cm} and d.webhook_id >= ${cw ?? ''})`
    : sql``;
  // With `message`: those messages' deliveries by the (message_id, webhook_id) index, not each webhook's range.
  const keys = await queryRows<{ id: string; created_at: string }>(
    db,
    query.message
      ? sql`
    select d.id, d.created_at::text from service.deliveries d join service.webhooks w on w.id = d.webhook_id
    where d.message_id = any(${sqlArray(query.message, 'text')}) and w.account_id = ${accountId} and w.deleted_at is null
      and ${stateIs(query.state)} ${within(query)} ${madeWithin(query.message)} ${after}
    order by d.created_at desc, d.message_id desc, d.webhook_id desc
    limit ${limit + 1}`
      : sql`
    select d.id, d.created_at::text from service.webhooks w
    cross join lateral (
      select d.id, d.created_at, d.message_id, d.webhook_id from service.deliveries d
      where d.webhook_id = w.id and ${stateIs(query.state)} ${within(query)} ${after}
      order by d.created_at desc nulls last, d.message_id desc nulls last
      limit ${limit + 1}
    ) d
    where w.account_id = ${accountId} and w.deleted_at is null
    order by d.created_at desc, d.message_id desc, d.webhook_id desc
    limit ${limit + 1}`,
  );
  const ids = keys.map((r) => r.id);
  const content = query.withContent ?? false;
  // The page's deliveries by id and created_at: the partitions of their times alone (select-deliveries.ts).
  const views = ids.length ? await deliveriesAt(db, keys, { withPayload: content, withLastResponse: content }) : [];
  const byId = new Map(views.map((v) => [v.delivery.id, v]));
  const rows = ids.map((id) => byId.get(id)).filter((v) => v !== undefined);
  return pageOf(
    rows,
    limit,
    (v) => ({ createdAt: v.delivery.createdAt, id: `${v.delivery.messageId}${KEY_SEPARATOR}${v.delivery.webhookId}` }),
    (v) => ({
      webhookId: v.delivery.webhookId,
      ...messageToJson(v, v.payload ?? undefined),
      ...(content && v.lastAttempt ? { lastAttempt: attemptToJson({ ...v.lastAttempt, response: v.lastAttempt.response ?? '' }, { withResponse: true }) } : {}),
    }),
    scope,
  );
}

/** Each webhook's failed and retrying messages in the window, exact up to `cap` (each a bounded index range); webhooks with none are left out. */
export async function countTroubledMessages(accountId: string, query: TTroubledCountsQuery): Promise<TTroubledCountsJson> {
  const db = await getDb();
  const count = (state: TTroubleState) =>
    sql`(select count(*)::int from (select 1 from service.deliveries d where d.webhook_id = w.id and ${stateIs(state)} ${within(query)} limit ${query.cap + 1}) x)`;
  // The webhooks with none are left out here, not by a WHERE on the counts: the planner would run
  // each count again for it (at 100k grants, 20 webhooks × 1,001 index entries read twice).
  const rows = await queryRows<{ webhook_id: string; failed: number; retrying: number }>(
    db,
    sql`
    select w.id as webhook_id, ${count('failed')} as failed, ${count('retrying')} as retrying
    from service.webhooks w where w.account_id = ${accountId} and w.deleted_at is null
    order by w.id`,
  );
  const of = (n: number): TTroubleCount => ({ count: Math.min(Number(n), query.cap), capped: Number(n) > query.cap });
  return {
    cap: query.cap,
    results: rows
      .filter((r) => Number(r.failed) > 0 || Number(r.retrying) > 0)
      .map((r) => ({ webhookId: r.webhook_id, failed: of(r.failed), retrying: of(r.retrying) })),
  };
}
