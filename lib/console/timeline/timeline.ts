import 'server-only';
import { isUnsupported, type ConnectApi, type TAttempt, type TMessage, type TWebhook } from '@/lib/console/connect-api';
import { allAttempts, cachedAttempts, withLastResponse, withResponse } from './attempts-of-message';
import type { TExplainTimes } from './explain-delivery';
import { joinDelivery, receiversOfDelivery, stoppedOf, type TJoinDelivery, type TSibling } from './join-delivery';
import { mapLimit } from '../map-limit';
import { responseGone } from '../retention/body-gone';
import { receiptSummariesAt } from '../receivers/receipts-by-message';
import { listReceivers, type TReceiver } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import { sameDestination, type TConsoleAddresses } from '../receivers/receiver-urls';
import { siblingWebhooks } from './sibling-webhooks';
import { secretFingerprint } from '../secret-fingerprint';
import type { TEnvironmentName } from '../staff/session';
import type { TDeliveryEvent, TMessageDetail, TTimeline, TTimelineAttempt, TTimelineFilters, TTimelineMessage, TTimelineWebhook } from './timeline-types';
import { getTrackedWebhook } from '../webhooks/tracked-webhooks';
import { toWebhookView } from '../webhooks/webhook-view';
import { isoTime } from './iso-time';

export type * from './timeline-types';

// One page of a webhook's timeline, and one message of it in full: the API's messages and attempts
// joined with the receipts at the receiver those attempts went to. The page renders the first
// paint with it; the JSON routes the page polls call the same functions.
//
// API calls per timeline page: the message list (whose EXT lastAttempt makes a call per message
// unnecessary), Get webhook, and the webhook's secret only when a signature failed. A service
// without lastAttempt costs one attempts call per changed message (cached while unchanged).

export const TIMELINE_PAGE_SIZE = 25;
const ATTEMPT_FETCH_CONCURRENCY = 6;

export function toTimelineAttempt(a: TAttempt): TTimelineAttempt {
  return {
    id: a.id,
    timestamp: isoTime(a.timestamp),
    status: a.status,
    responseStatusCode: a.responseStatusCode,
    responseDurationMs: a.responseDurationMs,
    triggerType: a.triggerType,
    url: a.url,
    ...(a.response !== undefined ? { response: a.response } : {}),
    ...(a.responsePurged ? { responseGone: responseGone(a.responsePurged)! } : {}),
  };
}

/** Get webhook (EXT): null when the service does not offer it; other failures are thrown. */
export async function webhookSettings(api: ConnectApi, webhookId: string): Promise<TWebhook | null> {
  try {
    return await api.getWebhook(webhookId);
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}

/** The fingerprint of the webhook's secret (EXT), for explaining a failed signature check; null when unknown. */
export async function webhookSecretFingerprint(api: ConnectApi, webhookId: string): Promise<string | null> {
  return api.getWebhookSecret(webhookId).then(
    (s) => secretFingerprint(s.key),
    () => null,
  );
}

/** The delivery as the join needs it, from what the message carries (its attempts, or its newest one); null when it carries neither. */
export function carriedDelivery(m: TMessage): TJoinDelivery | null {
  const nextAttempt = m.nextAttempt ? isoTime(m.nextAttempt) : null;
  if (m.attempts !== undefined) return { status: m.status, attemptCount: m.attemptCount, nextAttempt, attempts: m.attempts.map(toTimelineAttempt), complete: true, ...stoppedOf(m) };
  if (m.lastAttempt === undefined) return null;
  return { status: m.status, attemptCount: m.attemptCount, nextAttempt, attempts: m.lastAttempt ? [toTimelineAttempt(m.lastAttempt)] : [], complete: m.attemptCount === 0, ...stoppedOf(m) };
}

/** What the API says of this message at this webhook, as the join needs it. */
export async function deliveryOf(envName: TEnvironmentName, api: ConnectApi, webhookId: string, m: TMessage): Promise<TJoinDelivery> {
  const carried = carriedDelivery(m);
  if (carried) return carried;
  const attempts = await cachedAttempts(envName, api, webhookId, m);
  return { status: m.status, attemptCount: m.attemptCount, nextAttempt: m.nextAttempt ? isoTime(m.nextAttempt) : null, attempts: attempts.map(toTimelineAttempt), complete: true, ...stoppedOf(m) };
}

export async function loadTimeline(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  filters: TTimelineFilters,
  options: { times?: TExplainTimes } = {},
): Promise<TTimeline> {
  return (await readTimelinePage(envName, api, webhookId, filters, options)).timeline;
}

/** The newest timestamp of a page of messages (the API lists newest first; filters may not). */
const newestTimestamp = (messages: readonly { timestamp: string }[]): string | undefined =>
  messages.reduce<string | undefined>((newest, m) => (newest === undefined || Date.parse(m.timestamp) > Date.parse(newest) ? m.timestamp : newest), undefined);

/** What a timeline joins every page against: the webhook's settings and URL, the receivers, this console's addresses, the sibling webhooks. */
export type TTimelineContext = {
  settings: TTimelineWebhook | null;
  webhookUrl: string;
  receivers: TReceiver[];
  addresses: TConsoleAddresses;
  siblings: TTimelineWebhook[];
};

/** `newest`: the sibling webhooks are read after this moment (see siblingWebhooks); an export passes its start. */
export async function readTimelineContext(envName: TEnvironmentName, api: ConnectApi, webhookId: string, newest?: string): Promise<TTimelineContext> {
  const [webhook, tracked, receivers, addresses, siblings] = await Promise.all([
    webhookSettings(api, webhookId).catch(() => null),
    getTrackedWebhook(envName, webhookId),
    listReceivers(),
    consoleAddresses(),
    siblingWebhooks(envName, api, webhookId, newest),
  ]);
  return { settings: webhook ? toWebhookView(webhook) : null, webhookUrl: webhook?.url ?? tracked?.url ?? '', receivers, addresses, siblings };
}

/**
 * A timeline page and the messages as the API listed them. `content`: each with its payload and
 * all its attempts from the list itself (EXT withContent, withAttempts) — what an export writes —
 * so a page is one call whatever it holds.
 */
export async function readTimelinePage(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  filters: TTimelineFilters,
  { times, content = false }: { times?: TExplainTimes; content?: boolean } = {},
): Promise<{ timeline: TTimeline; listed: TMessage[] }> {
  // Before the API is read: receipts stored later are newer than its answer (reconcile.ts).
  const asOf = new Date();
  const [page, ctx] = await Promise.all([
    api.listMessages(webhookId, {
      pageLimit: filters.pageLimit ?? TIMELINE_PAGE_SIZE,
      pageToken: filters.pageToken || undefined,
      status: filters.status || undefined,
      eventType: filters.eventType || undefined,
      after: filters.after || undefined,
      before: filters.before || undefined,
      ...(content ? { withContent: true, withAttempts: true } : {}),
    }),
    readTimelineContext(envName, api, webhookId),
  ]);
  const { webhookUrl, settings, receivers, addresses } = ctx;
  // The newest message on the page decides whether the list of siblings was read recently enough (read again if not).
  const siblings = await siblingWebhooks(envName, api, webhookId, newestTimestamp(page.results));
  const deliveries = await mapLimit(page.results, ATTEMPT_FETCH_CONCURRENCY, async (m) => withLastResponse(api, webhookId, m.id, await deliveryOf(envName, api, webhookId, m)));
  const now = new Date();
  const messages = await joinMessages(api, { webhookId, messages: page.results, deliveries, webhook: settings, webhookUrl, receivers, addresses, siblings, asOf, now, times });
  const receiver = receiversOfDelivery([], webhookUrl, receivers, addresses)[0];
  const timeline: TTimeline = {
    webhook: settings,
    receiver: receiver ? { id: receiver.id, name: receiver.name, slug: receiver.slug } : null,
    messages,
    sharedUrlWith: receiver ? siblings.filter((w) => sameDestination(w.url, webhookUrl)).map((w) => ({ id: w.id, description: w.description })) : [],
    nextPageToken: page.nextPageToken ?? null,
    fetchedAt: now.toISOString(),
  };
  return { timeline, listed: page.results };
}

/**
 * One webhook's messages joined with their deliveries and receipts. A failed signature check is
 * explained with both secrets' fingerprints: one more call (the webhook's secret), only then.
 */
export async function joinMessages(
  api: ConnectApi,
  input: {
    webhookId: string;
    messages: TMessage[];
    deliveries: TJoinDelivery[];
    webhook: TTimelineWebhook | null;
    webhookUrl: string;
    receivers: TReceiver[];
    addresses: TConsoleAddresses;
    /** The account's other webhooks (a receiver they share splits its arrivals by address). */
    siblings: readonly TSibling[];
    /** When the caller began reading the API: receipts stored later are newer than its answer. */
    asOf: Date;
    now: Date;
    times?: TExplainTimes;
  },
): Promise<TTimelineMessage[]> {
  // The receipts at every receiver these deliveries went to (or, unsent, would go to), in one
  // query. All of them, read after the API: a receipt the API's answer already counts is never cut.
  const urls = [input.webhookUrl, ...input.deliveries.flatMap((d) => d.attempts.map((a) => a.url))].filter(Boolean);
  const receipts = await receiptSummariesAt(
    input.messages.map((m) => m.id),
    receiversOfDelivery([...new Set(urls)], '', input.receivers, input.addresses).map((r) => r.id),
  );
  const join = (webhookFingerprint?: string | null) =>
    input.messages.map((m, i): TTimelineMessage => {
      const delivery = input.deliveries[i];
      // Named one by one rather than spread from `input`: a spread per message was ~4 % of an export's CPU.
      const joined = joinDelivery({
        message: m,
        delivery,
        receipts,
        webhookFingerprint,
        webhook: input.webhook,
        webhookUrl: input.webhookUrl,
        receivers: input.receivers,
        addresses: input.addresses,
        siblings: input.siblings,
        asOf: input.asOf,
        now: input.now,
        times: input.times,
      });
      return {
        id: m.id,
        eventType: m.eventType,
        timestamp: isoTime(m.timestamp),
        status: m.status,
        nextAttempt: delivery.nextAttempt,
        retriesStopped: delivery.retriesStopped ?? null,
        attemptCount: m.attemptCount,
        lastAttempt: delivery.attempts[delivery.attempts.length - 1] ?? null,
        receipts: joined.receipts,
        reconciliation: joined.reconciliation,
        explanation: joined.explanation,
      };
    });
  const joined = join();
  if (!joined.some((m) => m.reconciliation === 'received-bad-signature')) return joined;
  return join(await webhookSecretFingerprint(api, input.webhookId));
}

export async function loadMessageDetail(envName: TEnvironmentName, api: ConnectApi, webhookId: string, messageId: string): Promise<TMessageDetail> {
  const asOf = new Date();
  const [message, attemptList, webhook, tracked, receivers, addresses] = await Promise.all([
    api.getMessage(webhookId, messageId),
    allAttempts(api, webhookId, messageId),
    webhookSettings(api, webhookId).catch(() => null),
    getTrackedWebhook(envName, webhookId),
    listReceivers(),
    consoleAddresses(),
  ]);
  const siblings = await siblingWebhooks(envName, api, webhookId, message.timestamp);
  const attempts = (await mapLimit(attemptList, ATTEMPT_FETCH_CONCURRENCY, (a) => withResponse(api, webhookId, messageId, a))).map(toTimelineAttempt);
  const webhookUrl = webhook?.url ?? tracked?.url ?? '';
  const settings = webhook ? toWebhookView(webhook) : null;
  const targets = receiversOfDelivery(
    attempts.map((a) => a.url),
    webhookUrl,
    receivers,
    addresses,
  );
  const receipts = await receiptSummariesAt([messageId], targets.map((r) => r.id));
  const delivery: TJoinDelivery = {
    status: message.status,
    attemptCount: message.attemptCount,
    nextAttempt: message.nextAttempt ? new Date(message.nextAttempt).toISOString() : null,
    attempts,
    complete: true,
    ...stoppedOf(message),
  };
  const now = new Date();
  const base = { message, webhook: settings, webhookUrl, delivery, receivers, addresses, receipts, siblings, asOf, now };
  let joined = joinDelivery(base);
  if (joined.reconciliation === 'received-bad-signature') {
    joined = joinDelivery({ ...base, webhookFingerprint: await webhookSecretFingerprint(api, webhookId) });
  }
  const events: TDeliveryEvent[] = [
    ...attempts.map((a): TDeliveryEvent => ({ kind: 'attempt', at: a.timestamp, attempt: a })),
    ...joined.receipts.map((r): TDeliveryEvent => ({ kind: 'receipt', at: r.receivedAt, receipt: r })),
    // A receipt is stored while its attempt is still waiting for the answer: at the same instant, the attempt first.
  ].sort((a, b) => a.at.localeCompare(b.at) || (a.kind === b.kind ? 0 : a.kind === 'attempt' ? -1 : 1));
  return {
    webhookId,
    webhookDisabled: settings?.disabled ?? false,
    message: {
      id: message.id,
      eventType: message.eventType,
      timestamp: new Date(message.timestamp).toISOString(),
      status: message.status,
      nextAttempt: delivery.nextAttempt,
      retriesStopped: delivery.retriesStopped ?? null,
      attemptCount: message.attemptCount,
      lastAttempt: attempts[attempts.length - 1] ?? null,
      receipts: joined.receipts,
      reconciliation: joined.reconciliation,
      explanation: joined.explanation,
      payload: message.payload ?? null,
    },
    receiver: joined.receiver,
    attempts,
    events,
    fetchedAt: now.toISOString(),
  };
}
