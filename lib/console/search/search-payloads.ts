import 'server-only';
import { isUnsupported, type ConnectApi, type TAccountMessageSummary } from '@/lib/console/connect-api';
import { accountWebhooks } from '../webhooks/account-webhooks';
import { mapLimit } from '../map-limit';
import { listReceivers } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import { receiverForUrl } from '../receivers/receiver-urls';
import type { TEnvironmentName } from '../staff/session';
import type { TPayloadQuery } from './payload-query';
import type { TPayloadHit, TPayloadSearch } from './payload-search-types';
import { searchReceipts, type TReceiptMatch } from './search-receipts';
import type { TSearchWindow } from './search-window';

// A payload search on both sides of the wire, listed as cases: the receivers' bodies here
// (search-receipts.ts) and the service's payloads through its message listing (EXT payloadPath /
// payloadText, never its schema), one hit per message, newest first, each linked to its grant's case.

export const MAX_HITS = 25;
const DETAIL_CONCURRENCY = 6;

const caseHref = (grantId: string | null, messageId: string | null, receiptId: number | null) =>
  grantId ? `/cases/${encodeURIComponent(grantId)}` : messageId ? `/cases/${encodeURIComponent(messageId)}` : `/receipts/${receiptId}`;

type TServiceMatches = { list: TAccountMessageSummary[]; more: boolean; searchedUntil: Date | null };

async function serviceMatches(api: ConnectApi, query: TPayloadQuery, window: TSearchWindow, notes: string[]): Promise<TServiceMatches> {
  const filter = query.kind === 'payload-field' ? { payloadPath: query.path, payloadEquals: query.valueJson } : { payloadText: query.text };
  try {
    const page = await api.get('/v1/messages', {
      params: { query: { ...filter, after: window.since.toISOString(), before: window.until.toISOString(), pageLimit: MAX_HITS, withWebhooks: 'true' } },
    });
    const searchedUntil = page.partial && page.searchedUntil ? new Date(page.searchedUntil) : null;
    return {
      list: page.results,
      more: Boolean(page.nextPageToken),
      searchedUntil: searchedUntil && !Number.isNaN(searchedUntil.getTime()) ? searchedUntil : null,
    };
  } catch (err) {
    if (!isUnsupported(err)) throw err;
    notes.push('This service offers no payload search (an extension): only the bodies this console’s receivers stored were searched.');
    return { list: [], more: false, searchedUntil: null };
  }
}

/**
 * Both sides searched within their time budget (SEARCH_BUDGET_MS; lib/db/search-back.ts): the
 * answer reaches back as far as the side that got less far, and what the other found older than that
 * is left to the next search (`until` = searchedUntil), so none is listed twice or skipped. A side
 * whose page was full is complete from where its oldest listed match is on: when that is older than
 * the stop, nothing of it above the stop is missing.
 */
function withinBoth<R, M>(
  receipts: { matches: R[]; searchedUntil: Date | null },
  service: TServiceMatches,
  receivedAt: (r: R) => Date,
  createdAt: (m: M) => Date,
  list: M[],
) {
  const stops = [receipts.searchedUntil, service.searchedUntil].filter((d): d is Date => d !== null);
  const stop = stops.length ? new Date(Math.max(...stops.map((d) => d.getTime()))) : null;
  const keptReceipts = stop ? receipts.matches.filter((r) => receivedAt(r) >= stop) : receipts.matches;
  const keptMessages = stop ? list.filter((m) => createdAt(m) >= stop) : list;
  const receiptsFull = receipts.matches.length > MAX_HITS && keptReceipts.length === receipts.matches.length;
  const serviceFull = service.more && keptMessages.length === list.length;
  return { stop, keptReceipts, keptMessages, more: receiptsFull || serviceFull };
}

export async function searchPayloads(
  envName: TEnvironmentName,
  api: ConnectApi,
  q: string,
  query: TPayloadQuery,
  window: TSearchWindow,
): Promise<TPayloadSearch> {
  const notes: string[] = [];
  const [receiptSearch, service, { webhooks }, receivers, addresses] = await Promise.all([
    searchReceipts(query, window, MAX_HITS + 1),
    serviceMatches(api, query, window, notes),
    accountWebhooks(envName, api),
    listReceivers(),
    consoleAddresses(),
  ]);
  const both = withinBoth(
    receiptSearch,
    service,
    (r) => r.receivedAt,
    (m: TAccountMessageSummary) => new Date(m.timestamp),
    service.list,
  );
  const receipts = both.keptReceipts;
  // The webhooks whose URL reaches each receiver: which webhook a receipt answers.
  const webhooksAt = new Map<string, { id: string; url: string }[]>();
  for (const w of webhooks) {
    const r = receiverForUrl(w.url, receivers, addresses);
    if (r) webhooksAt.set(r.id, [...(webhooksAt.get(r.id) ?? []), { id: w.id, url: w.url }]);
  }
  const urlOf = new Map(webhooks.map((w) => [w.id, w.url]));

  const hits = new Map<string, TPayloadHit>();
  const add = (key: string, make: () => TPayloadHit): TPayloadHit => {
    const hit = hits.get(key) ?? make();
    hits.set(key, hit);
    return hit;
  };
  const addWebhooks = (hit: TPayloadHit, ids: string[]) => {
    for (const id of ids) if (!hit.webhooks.some((x) => x.id === id)) hit.webhooks.push({ id, url: urlOf.get(id) ?? '' });
  };
  // A message the service matched: the webhooks it was queued for, listed with it (EXT withWebhooks);
  // from its detail when the service lists none (one call each).
  const withoutWebhooks: TPayloadHit[] = [];
  for (const m of both.keptMessages) {
    const grantId = m.tags.find((t) => t.startsWith('grant:'))?.slice('grant:'.length) ?? null;
    const hit = add(m.id, () => ({
      messageId: m.id,
      eventType: m.eventType,
      grantId,
      href: caseHref(grantId, m.id, null),
      at: m.timestamp,
      matchedIn: [],
      webhooks: [],
      receipts: [],
      snippet: m.excerpt ?? '',
    }));
    hit.matchedIn.push('message');
    if (m.webhookIds) addWebhooks(hit, m.webhookIds);
    else withoutWebhooks.push(hit);
  }
  for (const r of receipts.slice(0, MAX_HITS)) addReceipt(r);
  function addReceipt(r: TReceiptMatch) {
    const key = r.messageId ?? `receipt:${r.id}`;
    const hit = add(key, () => ({
      messageId: r.messageId,
      eventType: r.eventType,
      grantId: r.grantId,
      href: caseHref(r.grantId, r.messageId, r.id),
      at: r.receivedAt.toISOString(),
      matchedIn: [],
      webhooks: [],
      receipts: [],
      snippet: r.snippet,
    }));
    if (!hit.matchedIn.includes('receipt')) hit.matchedIn.push('receipt');
    hit.grantId ??= r.grantId;
    hit.href = caseHref(hit.grantId, hit.messageId, r.id);
    if (r.receivedAt.toISOString() > hit.at) hit.at = r.receivedAt.toISOString();
    const { id, receiverId, receiverName, verdict, responseStatus } = r;
    hit.receipts.push({ id, receiverId, receiverName, receivedAt: r.receivedAt.toISOString(), verdict, responseStatus });
    for (const w of webhooksAt.get(receiverId) ?? []) if (!hit.webhooks.some((x) => x.id === w.id)) hit.webhooks.push(w);
  }

  await mapLimit(withoutWebhooks, DETAIL_CONCURRENCY, async (hit) => {
    const detail = await api.get('/v1/messages/{id}', { params: { path: { id: hit.messageId! } } }).catch(() => null);
    addWebhooks(
      hit,
      (detail?.deliveries ?? []).map((d) => d.webhookId),
    );
  });

  const list = [...hits.values()].sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_HITS);
  const more = both.more || hits.size > MAX_HITS;
  if (more) notes.push(`More than ${MAX_HITS} messages match: the newest ${MAX_HITS} are listed. Narrow the window (since, until) or the query.`);
  if (!list.length && !notes.length && !both.stop) notes.push('No receipt body or message payload in this window matches.');
  const searchedUntil = both.stop?.toISOString() ?? null;
  return {
    query: q,
    kind: query.kind,
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    hits: list,
    more,
    partial: Boolean(searchedUntil),
    searchedUntil,
    notes,
    fetchedAt: new Date().toISOString(),
  };
}
