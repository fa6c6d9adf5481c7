import { and, eq, sql, type SQL } from 'drizzle-orm';
import { type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { createdWithin, olderThan } from '@/lib/db/paging';
import type { TCursor } from '@/lib/http/cursor';
import type { TMessageFilters } from '@/lib/service/webhooks/schemas';
import { ID_CLOCK_SLACK_MS } from './message-time';

const d = schema.deliveries;
const m = schema.messages;
const a = schema.attempts;
const SLACK = sql.raw(`interval '${ID_CLOCK_SLACK_MS} milliseconds'`);

/**
 * Deliveries with their message's event id and tags and their newest attempt, in one query for a
 * whole page: the attempt is a LATERAL subquery per row, which reads one entry of the attempts
 * index (webhook_id, message_id, created_at desc, id desc). The caller adds where/order/limit.
 * `payload` is selected only when asked for (Get message), so a list never reads the bodies.
 */
export function selectDeliveries(conn: DbOrTx, { withPayload = false, withLastResponse = false }: { withPayload?: boolean; withLastResponse?: boolean } = {}) {
  const last = conn
    .select({
      id: a.id,
      url: a.url,
      createdAt: a.createdAt,
      status: a.status,
      responseStatusCode: a.responseStatusCode,
      responseDurationMs: a.responseDurationMs,
      triggerType: a.triggerType,
      response: withLastResponse ? a.response : sql<string | null>`null`.as('response'),
      responsePurgedAt: withLastResponse ? a.responsePurgedAt : sql<Date | null>`null`.as('response_purged_at'),
      responseSize: withLastResponse ? a.responseSize : sql<number | null>`null`.as('response_size'),
      responseSha256: withLastResponse ? a.responseSha256 : sql<string | null>`null`.as('response_sha256'),
      responseErased: withLastResponse ? a.responseErased : sql<boolean | null>`null`.as('response_erased'),
    })
    .from(a)
    // Not before its message (less the clocks' slack): the attempts partitions older than the message are not read.
    .where(and(eq(a.webhookId, d.webhookId), eq(a.messageId, d.messageId), sql`${a.createdAt} >= ${d.createdAt} - ${SLACK}`))
    // NULLS LAST as in the index, so the newest is its first entry rather than the head of a sort.
    .orderBy(sql`${a.createdAt} desc nulls last`, sql`${a.id} desc nulls last`)
    .limit(1)
    .as('last_attempt');
  return conn
    .select({
      delivery: d,
      eventId: m.eventId,
      tags: m.tags,
      payload: withPayload ? sql<string | null>`${m.payload}` : sql<string | null>`null`,
      // Left-joined: drizzle makes the object null when the subquery found no attempt.
      lastAttempt: {
        id: last.id,
        url: last.url,
        createdAt: last.createdAt,
        status: last.status,
        responseStatusCode: last.responseStatusCode,
        responseDurationMs: last.responseDurationMs,
        triggerType: last.triggerType,
        response: last.response,
        responsePurgedAt: last.responsePurgedAt,
        responseSize: last.responseSize,
        responseSha256: last.responseSha256,
        responseErased: last.responseErased,
      },
    })
    .from(d)
    .innerJoin(m, and(eq(m.id, d.messageId), eq(m.createdAt, d.createdAt)))
    .leftJoinLateral(last, sql`true`);
}

/**
 * Where one webhook's deliveries of one account are listed (Webhooks: list messages) and streamed
 * (EXT …/messages/stream): the filters a list takes, and the keyset condition for the page after
 * `after` (newest first, over the (webhook_id, created_at, message_id) indexes).
 */
export function webhookDeliveriesWhere(
  accountId: string,
  webhookId: string,
  filters: Pick<TMessageFilters, 'status' | 'eventType' | 'before' | 'after'>,
  after: TCursor | null,
): SQL | undefined {
  return and(
    eq(d.webhookId, webhookId),
    eq(d.accountId, accountId),
    filters.status ? eq(d.status, filters.status) : undefined,
    filters.eventType ? eq(d.eventType, filters.eventType) : undefined,
    createdWithin(d.createdAt, filters),
    olderThan(d.createdAt, d.messageId, after),
  );
}
