import 'server-only';
import { stringify } from 'csv-stringify/sync';
import type { ConnectApi, TMessage } from '@/lib/console/connect-api';
import { mapLimit } from '@/lib/console/map-limit';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { payloadGone } from '@/lib/console/retention/body-gone';
import { allAttempts } from '@/lib/console/timeline/attempts-of-message';
import { readTimelinePage, toTimelineAttempt } from '@/lib/console/timeline/timeline';
import type { TTimeline, TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import type { TTimelineExportQuery } from './export-query';
import { REDACTED, redactTags, redactValue, scrubText } from './redact-export';

// A webhook's filtered timeline as CSV or NDJSON, streamed: one API page (100 messages, each with
// its payload and all its attempts: EXT withContent, withAttempts) is read, joined exactly as the
// timeline joins it (lib/console/timeline/timeline) with one receipts query, written, and only then
// is the next page read — memory stays one page whatever the history, and a page costs one call.
// Against a service without those extensions, each message's payload and attempts are asked for.
// A file is read long after it is made, so its explanations say ISO instants ("next attempt at
// 2026-…Z"), never "in 3 min".

const PAGE = 100;
const DETAIL_CONCURRENCY = 6;

export const CSV_COLUMNS = [
  'messageId',
  'eventType',
  'timestamp',
  'status',
  'attemptCount',
  'nextAttempt',
  'lastAttemptAt',
  'lastAttemptStatus',
  'lastResponseStatusCode',
  'lastResponseDurationMs',
  'lastTriggerType',
  'receipts',
  'firstReceivedAt',
  'lastVerdict',
  'reconciliation',
  'explanation',
  'donor',
  'bodiesGone',
] as const;

type TPage = { timeline: TTimeline; listed: TMessage[] };
type TPageReader = (pageToken: string | undefined) => Promise<TPage>;

function donorOf(message: TMessage | null, includeDonor: boolean): string {
  if (!includeDonor) return REDACTED;
  const data = (message?.payload as { data?: Record<string, unknown> } | undefined)?.data;
  if (!data) return '';
  const name = [data.firstName, data.lastName].filter((v) => typeof v === 'string' && v).join(' ');
  return [name, typeof data.email === 'string' && data.email ? `<${data.email}>` : ''].filter(Boolean).join(' ');
}

/** What retention or an erasure took from a message, one note each: its payload, its newest answer, its receipts' bodies. */
function bodiesGone(m: TTimelineMessage, payload: unknown): string {
  const notes = [payloadGone(payload)?.note, m.lastAttempt?.responseGone?.note, ...m.receipts.map((r) => r.bodyGone && `receipt #${r.id}: ${r.bodyGone.note}`)];
  return notes.filter(Boolean).join('; ');
}

function csvRow(m: TTimelineMessage, full: TMessage | null, includeDonor: boolean, listed: TMessage | undefined): (string | number)[] {
  const last = m.lastAttempt;
  const lastReceipt = m.receipts[m.receipts.length - 1];
  return [
    m.id,
    m.eventType,
    m.timestamp,
    m.status,
    m.attemptCount,
    m.nextAttempt ?? '',
    last?.timestamp ?? '',
    last?.status ?? '',
    last?.responseStatusCode ?? '',
    last?.responseDurationMs ?? '',
    last?.triggerType ?? '',
    m.receipts.length,
    m.receipts[0]?.receivedAt ?? '',
    lastReceipt?.verdict ?? '',
    m.reconciliation,
    scrubText(m.explanation, includeDonor),
    payloadGone(full?.payload) ? '' : donorOf(full, includeDonor),
    bodiesGone(m, (full ?? listed)?.payload),
  ];
}

async function ndjsonLine(api: ConnectApi, webhookId: string, m: TTimelineMessage, full: TMessage | null, includeDonor: boolean): Promise<string> {
  const attempts = (full?.attempts ?? (await allAttempts(api, webhookId, m.id))).map(toTimelineAttempt);
  const line = {
    id: m.id,
    eventId: full?.eventId ?? null,
    eventType: m.eventType,
    timestamp: m.timestamp,
    tags: redactTags(full?.tags, includeDonor),
    status: m.status,
    attemptCount: m.attemptCount,
    nextAttempt: m.nextAttempt,
    attempts,
    receipts: m.receipts,
    reconciliation: m.reconciliation,
    explanation: m.explanation,
    payload: full?.payload ?? null,
    /** "payload purged on DATE (retention 90d)" / "donor data erased on DATE" once the payload is a tombstone. */
    payloadGone: payloadGone(full?.payload)?.note ?? null,
  };
  return `${JSON.stringify(redactValue(line, includeDonor))}\n`;
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
        return api.getMessage(webhookId, m.id).then((got) => ({ ...got, attempts: have?.attempts }), () => null);
      })
    : page.messages.map(() => null);
  if (q.format === 'csv') {
    return stringify(page.messages.map((m, i) => csvRow(m, full[i], includeDonor, byId.get(m.id))), { header: first, columns: [...CSV_COLUMNS] });
  }
  const lines = await mapLimit(page.messages, DETAIL_CONCURRENCY, (m, i) => ndjsonLine(api, webhookId, m, full[i], includeDonor));
  return lines.join('');
}

/**
 * The export as a stream. The first page is read before the stream is made, so an unknown webhook
 * or a refused call is still a proper error status; later pages are read as the client pulls.
 */
export async function exportTimeline(envName: TEnvironmentName, api: ConnectApi, webhookId: string, q: TTimelineExportQuery): Promise<ReadableStream<Uint8Array>> {
  const read: TPageReader = (pageToken) =>
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
      const body = first && q.format === 'csv' && page.timeline.messages.length === 0 ? stringify([], { header: true, columns: [...CSV_COLUMNS] }) : text;
      first = false;
      controller.enqueue(encoder.encode(body));
      next = page.timeline.nextPageToken ? await read(page.timeline.nextPageToken) : null;
    },
  });
}
