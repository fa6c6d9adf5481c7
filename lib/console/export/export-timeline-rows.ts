import 'server-only';
import type { TMessage } from '@/lib/console/connect-api';
import { payloadGone } from '@/lib/console/retention/body-gone';
import type { TTimelineAttempt, TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import { csvHeader as header, type TCsvCell } from './csv-writer';
import { REDACTED, redactedJson, redactedJsonOf, redactTags, scrubText } from './redact-export';

// One message of a timeline export as a CSV row or an NDJSON line (export-timeline.ts).

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

export function csvRow(m: TTimelineMessage, full: TMessage | null, includeDonor: boolean, listed: TMessage | undefined): TCsvCell[] {
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

/**
 * One NDJSON line of a message whose attempts are known (`attempts`: the full list, oldest first).
 * `owned`: `full` and `m` were made for this line alone (a streamed message), so their donor fields
 * may be redacted in place (redactedJsonOf); otherwise (a list that may be cached) they are copied
 * as they are written.
 */
export function ndjsonText(m: TTimelineMessage, full: TMessage | null, attempts: TTimelineAttempt[], includeDonor: boolean, owned = false): string {
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
    /** "payload purged on DATE (retention 90d)" / "payload erased on DATE (donor erasure)" once the payload is a tombstone. */
    payloadGone: payloadGone(full?.payload)?.note ?? null,
  };
  return `${owned ? redactedJsonOf(line, includeDonor) : redactedJson(line, includeDonor)}\n`;
}

/** The header row alone: what an empty CSV export holds. */
export const csvHeader = () => header(CSV_COLUMNS);
