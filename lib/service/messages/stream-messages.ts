import { getDb } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { keysetStream } from '@/lib/http/keyset-stream';
import * as schema from '@/lib/db/schema/service';
import type { SQL } from 'drizzle-orm';
import { formatDuration } from '@/lib/duration';
import { env } from '@/lib/env';
import { newestFirst } from '@/lib/db/paging';
import type { TCursor } from '@/lib/http/cursor';
import { parseQuery } from '@/lib/http/query';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { ZMessageFilters, type TMessageFilters } from '@/lib/service/webhooks/schemas';
import { webhookDeliveriesWhere } from './select-deliveries';
import type { TAttemptJson, TMessageJson } from '@/lib/service/webhooks/webhook-json';
import { ID_CLOCK_SLACK_MS, ID_CLOCK_SLACK_SQL } from '@/lib/ids';

// EXT GET /v1/webhooks/{id}/messages/stream: every message of one webhook (filtered as the list is),
// newest first, as NDJSON — each line a message with its payload, all its attempts and its newest
// attempt's response body: what an export writes, without a request per page or per message.
// Read in keyset pages of STREAM_PAGE deliveries (one statement a page: the deliveries with their
// message, attempts and newest attempt, each line's JSON written by the database), each page only
// when the reader has taken the one before (a pull stream: a slow reader holds the reading, not the memory).

export const STREAM_PAGE = 500;

export const ZStreamFilters = ZMessageFilters.pick({ status: true, eventType: true, before: true, after: true });
export type TStreamFilters = Pick<TMessageFilters, 'status' | 'eventType' | 'before' | 'after'>;

/** A streamed message: the listed message with its payload and attempts, its newest attempt with its response. */
export type TStreamedMessageJson = Omit<TMessageJson, 'payload' | 'attempts' | 'lastAttempt'> & {
  payload: unknown;
  attempts: Omit<TAttemptJson, 'response' | 'responsePurged'>[];
  lastAttempt: Required<TAttemptJson> | null;
};

export function parseStreamFilters(searchParams: URLSearchParams): TStreamFilters {
  return parseQuery(searchParams, ZStreamFilters);
}

// ISO 8601 in UTC with milliseconds, as Date#toISOString writes it (to_char's MS truncates, as a Date does).
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const SLACK = sql.raw(ID_CLOCK_SLACK_SQL);
const attemptFields = sql`'id', a.id, 'url', a.url, 'timestamp', ${iso(sql`a.created_at`)}, 'status', a.status,
  'responseStatusCode', a.response_status_code, 'responseDurationMs', a.response_duration_ms, 'triggerType', a.trigger_type`;

/**
 * One page of the stream after `after` (the last row's (createdAt, messageId)), newest first, in one
 * statement that writes each line's JSON itself (the shape of messageToJson and attemptToJson; the
 * OpenAPI document's ZStreamedMessage checks it in the tests): no row objects, dates or
 * serialising on this side, so a line costs about what a bare SELECT of the same rows costs. The
 * stored payload is the JSON text that was delivered: appended to the line as it is.
 *
 * The page's deliveries are cut first (a subquery with the LIMIT, by the webhook's index), then each is joined to its
 * message and its attempts row by row (LATERALs: each pruned at run time to the partitions of its row's time). Joined to
 * the messages by (id, created_at) before the cut, the planner took the two equalities for independent and estimated
 * the join at one row, so it joined and read the attempts of every delivery of the webhook older than the cursor, and
 * sorted them for each page of 500: an export's pages grew with the webhook's history (4.6 s a page at 30 days × 1,000
 * a day). The cursor's time and now (with the clocks' slack) bound the partitions planned.
 */
async function readPage(
  accountId: string,
  webhookId: string,
  filters: TStreamFilters,
  after: TCursor | null,
): Promise<{ text: string; count: number; last: TCursor | null }> {
  const d = schema.deliveries;
  // Constants, so the partitions past them are not planned: none newer than the cursor (or now), none made ahead.
  const until = new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString();
  const upTo = (column: SQL) => sql`and ${column} <= ${after ? after.t : until}::timestamptz`;
  const rows = await queryRows<{ t: string; id: string; line: string; payload: string | null }>(
    await getDb(),
    sql`
    select deliveries.created_at::text as t, deliveries.message_id as id, m.payload,
      json_build_object(
        'id', deliveries.message_id, 'eventId', m.event_id, 'eventType', deliveries.event_type, 'timestamp', ${iso(sql`deliveries.created_at`)},
        'tags', m.tags, 'status', deliveries.status,
        'nextAttempt', case when deliveries.status = 'pending' and deliveries.next_attempt_at is not null then ${iso(sql`deliveries.next_attempt_at`)} end,
        'attemptCount', deliveries.attempt_count,
        'lastAttempt', tried.last,
        'retriesStopped', case when deliveries.stop_reason in ('donor_erased', 'payload_purged')
          then json_build_object('reason', deliveries.stop_reason, 'at', ${iso(sql`coalesce(deliveries.stopped_at, deliveries.updated_at)`)}) end,
        'recoverRunId', deliveries.recover_run_id,
        'attempts', coalesce(tried.attempts, '[]'::json)
      )::text as line
    from (
      select deliveries.created_at, deliveries.message_id, deliveries.webhook_id, deliveries.event_type, deliveries.status, deliveries.next_attempt_at,
        deliveries.attempt_count, deliveries.stop_reason, deliveries.stopped_at, deliveries.updated_at, deliveries.recover_run_id
      from ${d} where ${webhookDeliveriesWhere(accountId, webhookId, filters, after)} ${upTo(sql`deliveries.created_at`)}
      order by ${sql.join(newestFirst(d.createdAt, d.messageId), sql`, `)}
      limit ${STREAM_PAGE}
    ) deliveries
    join lateral (
      select m.event_id, m.tags, m.payload from ${schema.messages} m
      where m.id = deliveries.message_id and m.created_at = deliveries.created_at ${upTo(sql`m.created_at`)} offset 0
    ) m on true
    -- The delivery's attempts read once for both: the list, oldest first, and the newest with its response; made after
    -- its message (less the clocks' slack), and by now.
    left join lateral (
      select json_agg(json_build_object(${attemptFields}) order by a.created_at, a.id) as attempts,
        (array_agg(json_build_object(${attemptFields}, 'response', a.response,
            'responsePurged', case when a.response_purged_at is not null then json_build_object('at', ${iso(sql`a.response_purged_at`)},
              'retention', ${formatDuration(env.MESSAGE_PAYLOAD_RETENTION)}::text, 'size', coalesce(a.response_size, 0), 'sha256', coalesce(a.response_sha256, ''),
              'reason', case when a.response_erased then 'erasure' else 'retention' end) end)
          order by a.created_at desc nulls last, a.id desc nulls last))[1] as last
      from ${schema.attempts} a where a.webhook_id = deliveries.webhook_id and a.message_id = deliveries.message_id
        and a.created_at >= deliveries.created_at - ${SLACK} and a.created_at <= ${until}::timestamptz
    ) tried on true
    order by deliveries.created_at desc nulls last, deliveries.message_id desc nulls last`,
  );
  let text = '';
  for (const r of rows) text += `${r.line.slice(0, -1)}, "payload" : ${r.payload ?? 'null'}}\n`;
  const tail = rows[rows.length - 1];
  return { text, count: rows.length, last: rows.length === STREAM_PAGE && tail ? { t: tail.t, id: tail.id } : null };
}

/**
 * The webhook's messages as an NDJSON byte stream. The webhook is checked first (an unknown one is
 * a 404, not an empty stream); a failure later ends the stream with an error, so the reader sees a
 * cut connection rather than a short file that looks complete.
 */
export async function streamMessages(accountId: string, webhookId: string, filters: TStreamFilters): Promise<ReadableStream<Uint8Array>> {
  await getWebhook(accountId, webhookId);
  return keysetStream<TCursor>((a) => readPage(accountId, webhookId, filters, a));
}
