import 'server-only';
import type { ConnectApi, TMessage } from '@/lib/console/connect-api';
import { mapLimit } from '@/lib/console/map-limit';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { allAttempts } from '@/lib/console/timeline/attempts-of-message';
import { toTimelineAttempt } from '@/lib/console/timeline/message-delivery';
import { readTimelinePage } from '@/lib/console/timeline/timeline-page';
import type { TTimeline, TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import type { TTimelineExportQuery } from './export-query';
import { csvRows } from './csv-writer';
import { CSV_COLUMNS, csvHeader, csvRow, ndjsonText } from './export-timeline-rows';

// The timeline export against a service without the message stream (export-timeline.ts): one API
// page (100 messages, each with its payload and all its attempts: EXT withContent, withAttempts)
// is read, joined, written, and only then is the next page read. Against a service without those
// extensions either, each message's payload and attempts are asked for.

const PAGE = 100;
const DETAIL_CONCURRENCY = 6;

type TPage = { timeline: TTimeline; listed: TMessage[] };

async function ndjsonLine(api: ConnectApi, webhookId: string, m: TTimelineMessage, full: TMessage | null, includeDonor: boolean): Promise<string> {
  return ndjsonText(m, full, (full?.attempts ?? (await allAttempts(api, webhookId, m.id))).map(toTimelineAttempt), includeDonor);
}
/** One page's text: CSV rows (with the header row first) or NDJSON lines. */
async function pageText(api: ConnectApi, webhookId: string, q: TTimelineExportQuery, { timeline: page, listed }: TPage, first: boolean): Promise<string> {
  const includeDonor = q.includeDonor ?? false;
  // The payload is exported by NDJSON always, by CSV for the donor column; the list carries it,
  // else (a service without withContent) each message is read.
  const needFull = q.format === 'ndjson' || includeDonor;
  const byId = new Map(listed.map((m) => [m.id, m]));
  const full = needFull
    ? await mapLimit(page.messages, DETAIL_CONCURRENCY, async (m) => {
        const have = byId.get(m.id);
        if (have?.payload !== undefined) return have;
        return api.get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhookId, messageId: m.id } } }).then(
          (got) => ({ ...got, attempts: have?.attempts }),
          () => null,
        );
      })
    : page.messages.map(() => null);
  if (q.format === 'csv') {
    return csvRows(
      page.messages.map((m, i) => csvRow(m, full[i], includeDonor, byId.get(m.id))),
      first ? CSV_COLUMNS : undefined,
    );
  }
  const lines = await mapLimit(page.messages, DETAIL_CONCURRENCY, (m, i) => ndjsonLine(api, webhookId, m, full[i], includeDonor));
  return lines.join('');
}

/** The export read a page of the message list at a time; the first page before the stream is made. */
export async function exportTimelinePages(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  q: TTimelineExportQuery,
): Promise<ReadableStream<Uint8Array>> {
  const read = (pageToken: string | undefined): Promise<TPage> =>
    readTimelinePage(
      envName,
      api,
      webhookId,
      { status: q.status, eventType: q.eventType, after: q.since?.toISOString(), before: q.until?.toISOString(), pageLimit: PAGE, pageToken },
      { times: 'absolute', content: true },
    );
  const encoder = new TextEncoder();
  let next: TPage | null = await read(undefined);
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!next) return controller.close();
      const page: TPage = next;
      const text = await pageText(api, webhookId, q, page, first);
      // An empty CSV still gets its header row.
      const body = first && q.format === 'csv' && page.timeline.messages.length === 0 ? csvHeader() : text;
      first = false;
      controller.enqueue(encoder.encode(body));
      next = page.timeline.nextPageToken ? await read(page.timeline.nextPageToken) : null;
    },
  });
}
