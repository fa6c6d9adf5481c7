import { and, eq, sql } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { createdWithin, newestFirst } from '@/lib/db/paging';
import { parseQuery } from '@/lib/http/query';
import { getWebhook } from './get-webhook';
import { attemptsOf } from './list-messages';
import { ZMessageFilters, type TMessageFilters } from './schemas';
import { selectDeliveries } from './select-deliveries';
import { attemptToJson, messageToJson, type TAttemptJson, type TMessageJson } from './webhook-json';

// EXT GET /v1/webhooks/{id}/messages/stream: every message of one webhook (filtered as the list is),
// newest first, as NDJSON — each line a message with its payload, all its attempts and its newest
// attempt's response body: what an export writes, without a request per page or per message.
// Read in keyset pages of STREAM_PAGE deliveries (two queries a page: the deliveries with their
// message and newest attempt, then the page's attempts), each page only when the reader has taken
// the one before (a pull stream: a slow reader holds the reading, not the memory).

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

/** One page of the stream after `after` (the last row's (createdAt, messageId)), newest first. */
async function readPage(accountId: string, webhookId: string, filters: TStreamFilters, after: { t: Date; id: string } | null): Promise<{ lines: string[]; last: { t: Date; id: string } | null }> {
  const db = await getDb();
  const d = schema.deliveries;
  const rows = await selectDeliveries(db, { withPayload: true, withLastResponse: true })
    .where(
      and(
        eq(d.webhookId, webhookId),
        eq(d.accountId, accountId),
        filters.status ? eq(d.status, filters.status) : undefined,
        filters.eventType ? eq(d.eventType, filters.eventType) : undefined,
        createdWithin(d.createdAt, filters),
        after ? sql`(${d.createdAt}, ${d.messageId}) < (${after.t.toISOString()}::timestamptz, ${after.id})` : undefined,
      ),
    )
    .orderBy(...newestFirst(d.createdAt, d.messageId))
    .limit(STREAM_PAGE);
  const attempts = await attemptsOf(db, webhookId, rows.map((r) => r.delivery.messageId));
  const lines = rows.map((r) => {
    const line: Omit<TStreamedMessageJson, 'payload'> = {
      ...messageToJson(r),
      lastAttempt: r.lastAttempt ? (attemptToJson({ ...r.lastAttempt, response: r.lastAttempt.response ?? '' }, { withResponse: true }) as Required<TAttemptJson>) : null,
      attempts: attempts.get(r.delivery.messageId) ?? [],
    };
    // The stored payload is the JSON text that was delivered: written into the line as it is, not parsed and serialised again.
    return `${JSON.stringify(line).slice(0, -1)},"payload":${r.payload ?? 'null'}}\n`;
  });
  const tail = rows[rows.length - 1];
  return { lines, last: rows.length === STREAM_PAGE && tail ? { t: tail.delivery.createdAt, id: tail.delivery.messageId } : null };
}

/**
 * The webhook's messages as an NDJSON byte stream. The webhook is checked first (an unknown one is
 * a 404, not an empty stream); a failure later ends the stream with an error, so the reader sees a
 * cut connection rather than a short file that looks complete.
 */
export async function streamMessages(accountId: string, webhookId: string, filters: TStreamFilters): Promise<ReadableStream<Uint8Array>> {
  await getWebhook(accountId, webhookId);
  const encoder = new TextEncoder();
  let after: { t: Date; id: string } | null = null;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (done) return controller.close();
        const page = await readPage(accountId, webhookId, filters, after);
        after = page.last;
        done = !page.last;
        if (page.lines.length) controller.enqueue(encoder.encode(page.lines.join('')));
        if (done) controller.close();
      },
    },
    // One page queued at most: the next is read only once the reader has taken this one.
    { highWaterMark: 1 },
  );
}
