import 'server-only';
import { payloadGone } from '../retention/body-gone';
import { ConnectApiError, isUnsupported, type ConnectApi, type TAccountMessage, type TGrant, type TMessage } from '@/lib/console/connect-api';
import { accountWebhooks } from '../webhooks/account-webhooks';
import type { TCase, TCaseDelivery, TCaseGrant, TCaseMessage } from './case-types';
import { joinDelivery, stoppedOf, toTimelineReceipt, type TJoinDelivery } from '../timeline/join-delivery';
import type { TExplainTimes } from '../timeline/explain-delivery';
import { mapLimit } from '../map-limit';
import { keyByMessageAndReceiver, messageIdsMentioning, receiptSummariesOf } from '../receivers/receipts-by-message';
import { listReceivers } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import { SEVERITY } from '../timeline/reconcile';
import { classifyQuery, tagFor } from './search-query';
import type { TEnvironmentName } from '../staff/session';
import { cachedAttempts, withResponse } from '../timeline/attempts-of-message';
import { toTimelineAttempt } from '../timeline/message-delivery';
import { webhookSecretFingerprint } from '../webhooks/webhook-settings';
import type { TTimelineWebhook } from '../timeline/timeline-types';
import { forwardsOf } from '../forward/forwards';

// Search → case: the messages a term names (through the service's message tags, EXT, and through
// what this console's receivers stored), each joined for EVERY webhook of the account with its
// attempts, the receipts at that webhook's receiver, the reconciliation and the explanation.

const MAX_MESSAGES = 10;
const NO_SEARCH = 'This service offers no message search (an extension)';
const notFound = (err: unknown) => err instanceof ConnectApiError && err.status === 404 && !err.unsupported;

/** `attempts` and `lastAttempt` (with its response) when the service sent them with the message (EXT withAttempts). */
type TPerWebhook = { webhook: TTimelineWebhook; message: (Pick<TMessage, 'status' | 'attemptCount' | 'nextAttempt'> & Pick<Partial<TMessage>, 'attempts' | 'lastAttempt' | 'retriesStopped'>) | null };

/** The message as the account sees it, per webhook: Get message (EXT) or, without it, one Get per webhook. */
async function messageAcrossWebhooks(
  api: ConnectApi,
  id: string,
  webhooks: TTimelineWebhook[],
): Promise<{ head: { eventId: string | null; eventType: string; timestamp: string; tags: string[]; payload: unknown } | null; per: TPerWebhook[] }> {
  let account: TAccountMessage | null = null;
  try {
    account = await api.getAccountMessage(id, { withAttempts: true });
  } catch (err) {
    if (notFound(err)) return { head: null, per: webhooks.map((webhook) => ({ webhook, message: null })) };
    if (!isUnsupported(err)) throw err;
  }
  if (account) {
    const byWebhook = new Map(account.deliveries.map((d) => [d.webhookId, d]));
    return {
      head: { eventId: account.eventId ?? null, eventType: account.eventType, timestamp: account.timestamp, tags: account.tags ?? [], payload: account.payload },
      per: webhooks.map((webhook) => ({ webhook, message: byWebhook.get(webhook.id) ?? null })),
    };
  }
  const found = await mapLimit(webhooks, 6, (w) => api.getMessage(w.id, id).catch((err) => (notFound(err) ? null : Promise.reject(err))));
  const first = found.find((m): m is TMessage => m !== null);
  return {
    head: first ? { eventId: first.eventId ?? null, eventType: first.eventType, timestamp: first.timestamp, tags: first.tags ?? [], payload: first.payload } : null,
    per: webhooks.map((webhook, i) => ({ webhook, message: found[i] })),
  };
}

function grantOfPayload(payload: unknown): TGrant | null {
  const p = payload as { type?: string; data?: Record<string, unknown> } | null;
  if (!p || p.type !== 'grant.succeeded' || !p.data || typeof p.data.id !== 'string') return null;
  return p.data as unknown as TGrant;
}

/** What the card shows of a donor field the service erased (it holds `erased:<SHA-256>`). */
const ERASED = 'erased';
const isErased = (v: string | null | undefined) => typeof v === 'string' && v.startsWith('erased:');

/** `erasedAt`: when its message's payload was erased, if the case saw it (else the grant's last update, which the erasure was). */
function toCaseGrant(g: TGrant, source: TCaseGrant['source'], erasedAt?: string): TCaseGrant {
  const erased = isErased(g.firstName) || isErased(g.lastName) || isErased(g.email);
  const donorField = (v: string) => (erased ? ERASED : v);
  return {
    id: g.id,
    trackingId: g.trackingId,
    amount: g.amount,
    feeAmount: g.feeAmount,
    status: g.status,
    fundId: g.fundId,
    fundName: g.fundName,
    firstName: donorField(g.firstName),
    lastName: donorField(g.lastName),
    email: donorField(g.email),
    connectId: g.connectId,
    createdAt: g.createdAt,
    erasedAt: erased ? (erasedAt ?? g.updatedAt) : null,
    source,
  };
}

async function currentGrant(api: ConnectApi, id: string, fallback: TGrant | null, erasedAt?: string): Promise<TCaseGrant | null> {
  const now = await api.getGrant(id).catch(() => null);
  if (now) return toCaseGrant(now, 'api', erasedAt);
  return fallback ? toCaseGrant(fallback, 'payload') : null;
}

/** The message ids a term names: the service's tag search (EXT) first, then the receivers' store. */
async function messageIdsFor(api: ConnectApi, kind: TCase['kind'], q: string, notes: string[]): Promise<string[]> {
  if (kind === 'message-id') return [q];
  if (kind === 'event-id') {
    try {
      return [(await api.getAccountMessage(q)).id];
    } catch (err) {
      if (notFound(err)) notes.push(`The service has no message with the event id ${q} for this account.`);
      else if (isUnsupported(err)) notes.push('This service cannot look messages up by event id (an extension it does not offer).');
      else throw err;
      return [];
    }
  }
  const ids: string[] = [];
  const tag = tagFor(kind, q);
  if (tag) {
    try {
      const page = await api.listAccountMessages({ tag, pageLimit: MAX_MESSAGES + 1 });
      ids.push(...page.results.map((m) => m.id));
    } catch (err) {
      if (!isUnsupported(err)) throw err;
      notes.push(`${NO_SEARCH}: only what reached this console’s receivers was searched.`);
    }
  }
  // The receivers' store is searched when the service cannot be (no tag search, or free text, or
  // words that are no donor's name): a scan of every stored body, so not on every poll of a case
  // the service can answer.
  const freeText = kind === 'unknown' || (kind === 'donor-name' && ids.length === 0);
  if (q.length >= 4 && (freeText || notes.some((n) => n.startsWith(NO_SEARCH)))) ids.push(...(await messageIdsMentioning(q, MAX_MESSAGES + 1)));
  return [...new Set(ids)];
}

export async function buildCase(envName: TEnvironmentName, api: ConnectApi, raw: string, { times }: { times?: TExplainTimes } = {}): Promise<TCase> {
  const { kind, q } = classifyQuery(raw);
  const asOf = new Date();
  const now = asOf;
  const notes: string[] = [];
  const result: TCase = { query: q, kind, grants: [], messages: [], notes, fetchedAt: now.toISOString() };
  if (kind === 'webhook-id') return { ...result, redirect: `/webhooks/${encodeURIComponent(q)}` };
  if (kind === 'unknown') {
    notes.push('Not an id this console knows (msg_…, evt_…, ep_…, a grant UUID, a GC-XXXXXX tracking id, an e-mail address or a donor’s first and last name): searched the bodies and headers of received requests for the text.');
  }

  let ids = await messageIdsFor(api, kind, q, notes);
  if (ids.length > MAX_MESSAGES) {
    notes.push(`More than ${MAX_MESSAGES} messages match; showing the newest ${MAX_MESSAGES}. Search by tracking id or message id to narrow it.`);
    ids = ids.slice(0, MAX_MESSAGES);
  }

  const [{ webhooks, listed }, receivers] = await Promise.all([accountWebhooks(envName, api), listReceivers()]);
  if (!listed) notes.push('This service does not list webhooks (an extension): the case covers the webhooks this console tracks.');
  const addresses = await consoleAddresses();

  const found = await mapLimit(ids, 3, async (id) => ({ id, ...(await messageAcrossWebhooks(api, id, webhooks)) }));
  // Attempts of every (message, webhook) the service queued; the newest with its response body.
  const attemptLists = await mapLimit(
    found.flatMap((f) => f.per.flatMap((p) => (p.message && p.message.attemptCount > 0 ? [{ id: f.id, webhookId: p.webhook.id, message: p.message }] : []))),
    6,
    async ({ id, webhookId, message }) => {
      // Sent with the message (EXT withAttempts), or asked for: cached while the attempt count and
      // status stand still (the case page re-asks every few seconds).
      const sent = message.attempts && message.attempts.length >= message.attemptCount ? message.attempts : null;
      const list = [...(sent ?? (await cachedAttempts(envName, api, webhookId, { id, ...message })))];
      const last = list[list.length - 1];
      const known = sent && message.lastAttempt?.id === last?.id && message.lastAttempt?.response !== undefined ? message.lastAttempt : null;
      if (last) list[list.length - 1] = known ? { ...last, response: known.response, ...(known.responsePurged ? { responsePurged: known.responsePurged } : {}) } : await withResponse(api, webhookId, id, last);
      return [`${id}|${webhookId}`, list.map(toTimelineAttempt)] as const;
    },
  );
  const attemptsOf = new Map(attemptLists);
  // Every receipt, read after the API: one the API's answer already counts is never cut (reconcile.ts).
  const everyReceipt = await receiptSummariesOf(ids);
  const receipts = keyByMessageAndReceiver(everyReceipt);
  const forwards = await forwardsOf(everyReceipt.map((r) => r.id));

  const messages: TCaseMessage[] = [];
  const grantPayloads = new Map<string, TGrant>();
  const grantTags = new Map<string, string | undefined>();
  for (const f of found) {
    const everyReceiptOfMessage = everyReceipt.filter((r) => r.messageId === f.id);
    if (!f.head && everyReceiptOfMessage.length === 0) {
      notes.push(`The service knows no message ${f.id} for this account, and none of this console’s receivers got it.`);
      continue;
    }
    const head = f.head;
    const payloadGrant = head ? grantOfPayload(head.payload) : null;
    const test = head ? head.tags.includes('test') || (payloadGrant?.metadata as Record<string, unknown> | undefined)?.test === 'true' : false;
    if (payloadGrant && !test) grantPayloads.set(payloadGrant.id, payloadGrant);
    // An erased (or purged) payload no longer carries its grant; the message's tag still names it,
    // and the service still has its amount, fee, fund, status and ids: the card stays.
    const taggedGrant = head?.tags.find((t) => t.startsWith('grant:'))?.slice('grant:'.length);
    const gone = head ? payloadGone(head.payload) : null;
    if (!payloadGrant && taggedGrant && !test && gone) grantTags.set(taggedGrant, gone.kind === 'erased' ? gone.at : undefined);
    if (!head) notes.push(`The service knows no message ${f.id} for this account: only what this console’s receivers got is shown.`);
    const message = { id: f.id, eventType: head?.eventType ?? 'unknown', timestamp: head?.timestamp ?? everyReceiptOfMessage[0].receivedAt.toISOString() };
    const deliveries = await mapLimit(head ? f.per : [], 4, async ({ webhook, message: m }): Promise<TCaseDelivery> => {
      const delivery: TJoinDelivery | null = m
        ? {
            status: m.status,
            attemptCount: m.attemptCount,
            nextAttempt: m.nextAttempt ? new Date(m.nextAttempt).toISOString() : null,
            attempts: attemptsOf.get(`${f.id}|${webhook.id}`) ?? [],
            complete: true,
            ...stoppedOf(m),
          }
        : null;
      const input = { message, webhook, webhookUrl: webhook.url, delivery, receivers, addresses, receipts, siblings: webhooks, asOf, now, times };
      let joined = joinDelivery(input);
      if (joined.reconciliation === 'received-bad-signature') joined = joinDelivery({ ...input, webhookFingerprint: await webhookSecretFingerprint(api, webhook.id) });
      return {
        webhook,
        receiver: joined.receiver,
        status: m?.status ?? null,
        attemptCount: m?.attemptCount ?? 0,
        nextAttempt: delivery?.nextAttempt ?? null,
        attempts: delivery?.attempts ?? [],
        retriesStopped: delivery?.retriesStopped ?? null,
        receipts: joined.receipts,
        reconciliation: joined.reconciliation,
        explanation: joined.explanation,
      };
    });
    deliveries.sort((a, b) => SEVERITY.indexOf(a.reconciliation) - SEVERITY.indexOf(b.reconciliation));
    const explained = new Set(deliveries.flatMap((d) => d.receipts.map((r) => r.id)));
    messages.push({
      id: f.id,
      eventId: head?.eventId ?? null,
      eventType: message.eventType,
      timestamp: message.timestamp,
      // A purged payload no longer names its grant; the message's tags still do.
      grantId: test ? null : (payloadGrant?.id ?? head?.tags.find((t) => t.startsWith('grant:'))?.slice('grant:'.length) ?? null),
      test,
      payloadGone: head ? payloadGone(head.payload) : null,
      deliveries,
      otherReceipts: everyReceiptOfMessage.filter((r) => !explained.has(r.id)).map(toTimelineReceipt),
      forwards: forwards
        .filter((fw) => everyReceiptOfMessage.some((r) => r.id === fw.receiptId))
        .map(({ id, receiptId, at, actor, url, mode, status, elapsedMs, error }) => ({ id, receiptId, at, actor, url, mode, status, elapsedMs, error })),
    });
  }
  messages.sort((a, b) => b.timestamp.localeCompare(a.timestamp));

  const grantIds = [...new Set([...grantPayloads.keys(), ...grantTags.keys()])];
  if (kind === 'grant-id' && !grantIds.includes(q)) grantIds.unshift(q);
  result.grants = (await mapLimit(grantIds, 4, (id) => currentGrant(api, id, grantPayloads.get(id) ?? null, grantTags.get(id)))).filter((g): g is TCaseGrant => g !== null);
  if (result.grants.length && messages.length === 0) {
    notes.push('The service holds no message for this grant: no webhook of the account was subscribed when it was made.');
  }
  if (!messages.length && !result.grants.length && !notes.length) notes.push(`Nothing found for “${q}” in the ${envName} API or in this console’s receivers.`);
  result.messages = messages;
  return result;
}
