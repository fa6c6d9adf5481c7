import 'server-only';
import type { ConnectApi, TAttempt, TMessage } from '@/lib/console/connect-api';
import { processSingleton } from '@/lib/process-singleton';
import type { TJoinDelivery } from './join-delivery';
import { responseGone } from '../retention/body-gone';
import type { TEnvironmentName } from '../staff/session';

// A message's attempts at a webhook, and their response bodies, read from the API with the two
// caches that keep timelines and cases from asking twice.

const CACHE_MAX = 5000;
/** How many messages' attempts (or attempt bodies) a view reads from the API at once. */
export const ATTEMPT_FETCH_CONCURRENCY = 6;

// Attempts are append-only: while a message's attemptCount and status are unchanged, its attempt
// list is too. Only a service without the lastAttempt extension needs this. A cache, not state.
type TCached = { version: string; attempts: TAttempt[] };
const attemptCache = processSingleton('attempt-cache', () => new Map<string, TCached>());

export async function allAttempts(api: ConnectApi, webhookId: string, messageId: string): Promise<TAttempt[]> {
  const attempts: TAttempt[] = [];
  let pageToken: string | undefined;
  // 8 scheduled attempts plus manual resends: one page of 100 is nearly always all of them.
  for (let i = 0; i < 5; i++) {
    const page = await api.get('/v1/webhooks/{id}/messages/{messageId}/attempts', {
      params: { path: { id: webhookId, messageId }, query: { pageLimit: 100, pageToken } },
    });
    attempts.push(...page.results);
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  return attempts.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id));
}

export async function cachedAttempts(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  m: Pick<TMessage, 'id' | 'attemptCount' | 'status'>,
): Promise<TAttempt[]> {
  if (m.attemptCount === 0) return [];
  const key = `${envName}|${webhookId}|${m.id}`;
  const version = `${m.attemptCount}|${m.status}`;
  const hit = attemptCache.get(key);
  if (hit && hit.version === version) return hit.attempts;
  const attempts = await allAttempts(api, webhookId, m.id);
  attemptCache.delete(key);
  // Cached only when the list agrees with the count: a list read a moment before an attempt's row
  // became visible must not stick.
  if (attempts.length >= m.attemptCount) {
    attemptCache.set(key, { version, attempts });
    if (attemptCache.size > CACHE_MAX) attemptCache.delete(attemptCache.keys().next().value!);
  }
  return attempts;
}

// Recorded attempts change only when retention (or an erasure) empties their body. A purged body is
// kept once read (it cannot change again); a body still there is kept BODY_TTL_MS at most, so a
// purge or an erasure in any process shows within that — never a donor's answer from memory for
// long after the store let it go. An erasure through this console forgets them all at once.
const BODY_TTL_MS = 10_000;
type TBody = Pick<TAttempt, 'response' | 'responsePurged'> & { until: number };
const attemptBodies = processSingleton('attempt-bodies', () => new Map<string, TBody>());

/** Forgets every cached attempt body (after an erasure). */
export function forgetAttemptBodies(): void {
  attemptBodies.clear();
}

type TWithResponse<A> = A & Pick<TAttempt, 'response' | 'responsePurged'>;

export async function withResponse<A extends { id: string }>(api: ConnectApi, webhookId: string, messageId: string, a: A): Promise<TWithResponse<A>> {
  const key = `${api.config.baseUrl}|${a.id}`;
  const cached = attemptBodies.get(key);
  if (cached !== undefined && cached.until > Date.now())
    return { ...a, response: cached.response, ...(cached.responsePurged ? { responsePurged: cached.responsePurged } : {}) };
  const full = await api
    .get('/v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId}', { params: { path: { id: webhookId, messageId, attemptId: a.id } } })
    .catch(() => null);
  if (full?.response === undefined) return a as TWithResponse<A>;
  const body: TBody = {
    response: full.response,
    ...(full.responsePurged ? { responsePurged: full.responsePurged } : {}),
    until: full.responsePurged ? Infinity : Date.now() + BODY_TTL_MS,
  };
  attemptBodies.delete(key);
  attemptBodies.set(key, body);
  if (attemptBodies.size > CACHE_MAX) attemptBodies.delete(attemptBodies.keys().next().value!);
  return { ...a, response: body.response, ...(body.responsePurged ? { responsePurged: body.responsePurged } : {}) };
}

/**
 * A failed newest attempt with its response body or network error, so the explanation can quote
 * it ("the receiver answered 500 'database down'"): one call per failed attempt, ever (cached).
 */
export async function withLastResponse(api: ConnectApi, webhookId: string, messageId: string, delivery: TJoinDelivery): Promise<TJoinDelivery> {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last || last.status !== 'failed' || last.response !== undefined) return delivery;
  const full = await withResponse(api, webhookId, messageId, { ...last, response: undefined });
  if (full.response === undefined) return delivery;
  const gone = responseGone(full.responsePurged);
  return { ...delivery, attempts: [...delivery.attempts.slice(0, -1), { ...last, response: full.response, ...(gone ? { responseGone: gone } : {}) }] };
}
