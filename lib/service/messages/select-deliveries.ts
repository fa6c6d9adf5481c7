import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { createdWithin, olderThan } from '@/lib/db/paging';
import type { TCursor } from '@/lib/http/cursor';
import type { TMessageFilters } from '@/lib/service/webhooks/schemas';
import { ID_CLOCK_SLACK_MS, ID_CLOCK_SLACK_SQL } from '@/lib/ids';

const d = schema.deliveries;
const m = schema.messages;
const a = schema.attempts;
const SLACK = sql.raw(ID_CLOCK_SLACK_SQL);

/**
 * Deliveries with their message's event id and tags and their newest attempt, in one query for a
 * whole page: the attempt is a LATERAL subquery per row, which reads one entry of the attempts
 * index (webhook_id, message_id, created_at desc, id desc). The caller adds where/order/limit.
 * `payload` is selected only when asked for (Get message), so a list never reads the bodies.
 */
export function selectDeliveries(
  conn: DbOrTx,
  {
    withPayload = false,
    withLastResponse = false,
    attemptsWithin,
  }: { withPayload?: boolean; withLastResponse?: boolean; attemptsWithin?: { from: string; until: string } } = {},
) {
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
    // With `attemptsWithin` (constants), the partitions outside are not planned either: a bound of d's is known at run time only.
    .where(
      and(
        eq(a.webhookId, d.webhookId),
        eq(a.messageId, d.messageId),
        sql`${a.createdAt} >= ${d.createdAt} - ${SLACK}`,
        attemptsWithin ? sql`${a.createdAt} between ${attemptsWithin.from}::timestamptz and ${attemptsWithin.until}::timestamptz` : undefined,
      ),
    )
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

/** A delivery's key: its id and its created_at as the database prints it (`created_at::text`, to the microsecond). */
export type TDeliveryKey = { id: string; created_at: string };

/**
 * selectDeliveries of a page whose keys are known (a list reads its keys first, by index, then this): by id and created_at,
 * so that only the partitions of the keys' times are planned and probed (service.deliveries and service.messages are
 * partitioned by created_at: 0039, 0040), each row joined after the page is cut. The messages' created_at is named too:
 * the join's equality does not carry an IN list over, and the planner hashed every messages partition whole (3,101 rows
 * read for 68 on the year seed at 30 days). In one statement with the list's ORDER BY and LIMIT, it joined the webhook's
 * every delivery to its message and newest attempt and sorted them for the page (a webhook's timeline: 3,101 for 26).
 */
export function deliveriesAt(conn: DbOrTx, keys: TDeliveryKey[], options: Omit<NonNullable<Parameters<typeof selectDeliveries>[1]>, 'attemptsWithin'> = {}) {
  // Each a parameter of its type (not an array cast from text), so the planner prunes with the values.
  const distinct = [...new Set(keys.map((k) => k.created_at))];
  const times = distinct.map((t) => sql`${t}::timestamptz`);
  const madeAt = (column: typeof d.createdAt | typeof m.createdAt) => sql`${column} in (${sql.join(times, sql`, `)})`;
  // The newest attempts' partitions: from the oldest key's time (an attempt is made after its message) to now, give or take
  // the clocks' slack; the keys print as `2026-11-30 05:00:00.123456+00`.
  const oldest = Math.min(...distinct.map((t) => Date.parse(t.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))));
  const attemptsWithin = Number.isFinite(oldest)
    ? { from: new Date(oldest - ID_CLOCK_SLACK_MS).toISOString(), until: new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString() }
    : undefined;
  return selectDeliveries(conn, { ...options, attemptsWithin }).where(
    and(
      inArray(
        d.id,
        keys.map((k) => k.id),
      ),
      madeAt(d.createdAt),
      madeAt(m.createdAt),
    ),
  );
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
