import 'server-only';
import { isUnsupported, type ConnectApi, type TMessage } from '@/lib/console/connect-api';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { responseGone } from '@/lib/console/retention/body-gone';
import { joinMessages } from '@/lib/console/timeline/join-messages';
import { carriedDelivery, deliveryOf } from '@/lib/console/timeline/message-delivery';
import { readTimelineContext } from '@/lib/console/timeline/timeline-context';
import type { TJoinDelivery } from '@/lib/console/timeline/join-delivery';
import type { TTimelineExportQuery } from './export-query';
import { exportTimelinePages } from './export-timeline-pages';
import { csvRows } from './csv-writer';
import { CSV_COLUMNS, csvHeader, csvRow, ndjsonText } from './export-timeline-rows';

// A webhook's filtered timeline as CSV or NDJSON, streamed. The service streams the webhook's
// messages, each with its payload and all its attempts (EXT GET …/messages/stream, one connection
// for the whole export); they are taken a batch at a time (BATCH, fewer when large), joined exactly as the timeline joins them
// (lib/console/timeline/join-messages.ts) with one receipts query a batch, written, and only then is the
// next batch read — memory stays one batch whatever the history, and a slow reader slows the
// service's reading through the connection's back-pressure. Against a service without the stream,
// pages of the message list are read (withContent, withAttempts: one call a page), and without
// those either, each message's payload and attempts are asked for (export-timeline-pages.ts).
// A file is read long after it is made, so its explanations say ISO instants ("next attempt at
// 2026-…Z"), never "in 3 min".

/** The delivery as the join takes it, with the streamed newest attempt's response where it failed (what the timeline reads with one call for it). */
function withStreamedResponse(delivery: TJoinDelivery, m: TMessage): TJoinDelivery {
  const last = delivery.attempts[delivery.attempts.length - 1];
  const known = m.lastAttempt;
  if (!last || last.status !== 'failed' || !known || known.id !== last.id || known.response === undefined) return delivery;
  const gone = responseGone(known.responsePurged);
  return { ...delivery, attempts: [...delivery.attempts.slice(0, -1), { ...last, response: known.response, ...(gone ? { responseGone: gone } : {}) }] };
}

// A batch: this many messages, or fewer once their lines hold this many characters (large payloads);
// taken a received piece at a time, so the last piece may add the few lines it holds beyond them.
const BATCH = 200;
const BATCH_CHARS = 1 << 20;

/** The export from the service's message stream, or null when the service has none. */
async function exportFromStream(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  q: TTimelineExportQuery,
): Promise<ReadableStream<Uint8Array> | null> {
  // Before the API is read: receipts stored later are newer than its answer (reconcile.ts).
  const asOf = new Date();
  const filters = { status: q.status, eventType: q.eventType, after: q.since?.toISOString(), before: q.until?.toISOString() };
  const [lines, ctx] = await Promise.all([
    api
      .stream('/v1/webhooks/{id}/messages/stream', { params: { path: { id: webhookId }, query: filters } })
      .catch((err) => (isUnsupported(err) ? null : Promise.reject(err))),
    // The sibling webhooks read now: the stream may hold messages newer than the timelines' cached list.
    readTimelineContext(envName, api, webhookId, asOf.toISOString()),
  ]);
  if (!lines) return null;
  const includeDonor = q.includeDonor ?? false;
  const needFull = q.format === 'ndjson' || includeDonor;
  const source = lines.batches();
  const encoder = new TextEncoder();
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const batch: TMessage[] = [];
      let ended = false;
      const start = lines.chars;
      while (batch.length < BATCH && lines.chars - start < BATCH_CHARS) {
        const next = await source.next();
        if (next.done) {
          ended = true;
          break;
        }
        batch.push(...next.value);
      }
      // A streamed message carries all its attempts; deliveryOf asks the service only if one does not.
      const carried = batch.map(carriedDelivery);
      const listed = carried.every((d) => d !== null) ? carried : await Promise.all(batch.map((m, i) => carried[i] ?? deliveryOf(envName, api, webhookId, m)));
      const deliveries = listed.map((d, i) => withStreamedResponse(d, batch[i]));
      const joined = await joinMessages(api, {
        webhookId,
        messages: batch,
        deliveries,
        webhook: ctx.settings,
        webhookUrl: ctx.webhookUrl,
        receivers: ctx.receivers,
        addresses: ctx.addresses,
        siblings: ctx.siblings,
        asOf,
        now: new Date(),
        times: 'absolute',
      });
      const text =
        q.format === 'csv'
          ? batch.length
            ? csvRows(
                joined.map((m, i) => csvRow(m, needFull ? batch[i] : null, includeDonor, batch[i])),
                first ? CSV_COLUMNS : undefined,
              )
            : first
              ? csvHeader()
              : ''
          : joined.map((m, i) => ndjsonText(m, batch[i], listed[i].attempts, includeDonor, true)).join('');
      first = false;
      if (text) controller.enqueue(encoder.encode(text));
      if (ended) controller.close();
    },
    cancel() {
      lines.close();
    },
  });
}

/**
 * The export as a stream. The service is asked before the stream is made, so an unknown webhook
 * or a refused call is still a proper error status; later batches are read as the client pulls.
 */
export async function exportTimeline(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  q: TTimelineExportQuery,
): Promise<ReadableStream<Uint8Array>> {
  return (await exportFromStream(envName, api, webhookId, q)) ?? exportTimelinePages(envName, api, webhookId, q);
}
