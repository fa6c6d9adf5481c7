import 'server-only';
import type { connectApi, TAttempt, TMessage } from '@/lib/console/connect-api';
import { receiptSummariesForMessages, type TReceiptSummary } from '@/lib/console/receivers';
import { reconcile, type TReconciliation } from '@/lib/console/reconcile';
import type { TEnvironmentName } from '@/lib/console/session';
import { iso, mapLimit } from './map-limit';

// One page of a webhook's timeline: the API's messages joined with their attempts (API) and the
// receipts this console stored (DB), by message id. Used by the page (first paint) and the JSON
// route the page polls every second.

type ConnectApi = ReturnType<typeof connectApi>;

export const TIMELINE_PAGE_SIZE = 25;
const ATTEMPT_FETCH_CONCURRENCY = 6;

export type TTimelineAttempt = {
  id: string;
  timestamp: string;
  status: string;
  responseStatusCode: number;
  responseDurationMs: number;
  triggerType: string;
  url: string;
};
export type TTimelineReceipt = {
  id: number;
  receiverId: string;
  receivedAt: string;
  verdict: string;
  verdictReason: string;
  duplicate: boolean;
  responseStatus: number;
  bodySize: number;
};
export type TTimelineMessage = {
  id: string;
  eventType: string;
  timestamp: string;
  status: string;
  nextAttempt: string | null;
  attemptCount: number;
  /** null when the attempts could not be loaded (the counts on the message still show). */
  attempts: TTimelineAttempt[] | null;
  attemptsError?: string;
  receipts: TTimelineReceipt[];
  reconciliation: TReconciliation;
};
export type TTimeline = { messages: TTimelineMessage[]; nextPageToken: string | null; fetchedAt: string };
export type TTimelineFilters = { status?: string; eventType?: string; pageToken?: string; pageLimit?: number };

// Attempts are append-only: while a message's attemptCount and status are unchanged, its attempt list
// is too, so the poller does not re-ask the API for them every second. A cache, not state.
type TCached = { key: string; attempts: TAttempt[] };
const globalCache = globalThis as unknown as { __gcAttemptCache?: Map<string, TCached> };
const attemptCache = (globalCache.__gcAttemptCache ??= new Map());
const CACHE_MAX = 5000;

async function attemptsOf(env: TEnvironmentName, api: ConnectApi, webhookId: string, m: TMessage): Promise<TAttempt[]> {
  if (m.attemptCount === 0) return [];
  const cacheKey = `${env}|${webhookId}|${m.id}`;
  const version = `${m.attemptCount}|${m.status}`;
  const hit = attemptCache.get(cacheKey);
  if (hit && hit.key === version) return hit.attempts;
  const attempts: TAttempt[] = [];
  let pageToken: string | undefined;
  // 8 scheduled attempts plus manual resends: one page of 100 is nearly always all of them.
  for (let i = 0; i < 5; i++) {
    const page = await api.listAttempts(webhookId, m.id, { pageLimit: 100, pageToken });
    attempts.push(...page.results);
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  attemptCache.delete(cacheKey);
  // Cached only when the list agrees with the count: a list read a moment before an attempt's row
  // became visible must not stick.
  if (attempts.length >= m.attemptCount) {
    attemptCache.set(cacheKey, { key: version, attempts });
    if (attemptCache.size > CACHE_MAX) attemptCache.delete(attemptCache.keys().next().value!);
  }
  return attempts;
}

export function toTimelineAttempt(a: TAttempt): TTimelineAttempt {
  return {
    id: a.id,
    timestamp: iso(a.timestamp)!,
    status: a.status,
    responseStatusCode: a.responseStatusCode,
    responseDurationMs: a.responseDurationMs,
    triggerType: a.triggerType,
    url: a.url,
  };
}

export function toTimelineReceipt(r: TReceiptSummary): TTimelineReceipt {
  return {
    id: r.id,
    receiverId: r.receiverId,
    receivedAt: iso(r.receivedAt)!,
    verdict: r.verdict,
    verdictReason: r.verdictReason,
    duplicate: r.duplicate,
    responseStatus: r.responseStatus,
    bodySize: r.bodySize,
  };
}

export async function loadTimeline(env: TEnvironmentName, api: ConnectApi, webhookId: string, filters: TTimelineFilters): Promise<TTimeline> {
  const page = await api.listMessages(webhookId, {
    pageLimit: filters.pageLimit ?? TIMELINE_PAGE_SIZE,
    pageToken: filters.pageToken || undefined,
    status: filters.status || undefined,
    eventType: filters.eventType || undefined,
  } as Parameters<ConnectApi['listMessages']>[1]);
  const ids = page.results.map((m) => m.id);
  const [attemptLists, receiptMap] = await Promise.all([
    mapLimit(page.results, ATTEMPT_FETCH_CONCURRENCY, async (m) => {
      try {
        return { attempts: await attemptsOf(env, api, webhookId, m) };
      } catch (err) {
        return { attempts: null, error: err instanceof Error ? err.message : String(err) };
      }
    }),
    receiptSummariesForMessages(ids),
  ]);
  const messages = page.results.map((m, i): TTimelineMessage => {
    const { attempts, error } = attemptLists[i] as { attempts: TAttempt[] | null; error?: string };
    const receipts = receiptMap.get(m.id) ?? [];
    return {
      id: m.id,
      eventType: m.eventType,
      timestamp: iso(m.timestamp)!,
      status: m.status,
      nextAttempt: iso(m.nextAttempt),
      attemptCount: m.attemptCount,
      attempts: attempts ? attempts.map(toTimelineAttempt) : null,
      ...(error ? { attemptsError: error } : {}),
      receipts: receipts.map(toTimelineReceipt),
      reconciliation: reconcile(m, attempts, receipts),
    };
  });
  return { messages, nextPageToken: page.nextPageToken ?? null, fetchedAt: new Date().toISOString() };
}
