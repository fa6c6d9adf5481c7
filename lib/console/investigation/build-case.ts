import 'server-only';
import { payloadGone } from '../retention/body-gone';
import type { ConnectApi, TGrant } from '@/lib/console/connect-api';
import { accountWebhooks } from '../webhooks/account-webhooks';
import type { TCase, TCaseDelivery, TCaseGrant, TCaseMessage } from './case-types';
import { joinDelivery, stoppedOf, toTimelineReceipt, type TJoinDelivery } from '../timeline/join-delivery';
import type { TExplainTimes } from '../timeline/explain-delivery';
import { mapLimit } from '../map-limit';
import { keyByMessageAndReceiver, receiptSummariesOf } from '../receivers/receipts-by-message';
import { listReceivers, type TReceiver } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import type { TConsoleAddresses } from '../receivers/receiver-urls';
import { SEVERITY } from '../timeline/reconcile';
import { classifyQuery } from './search-query';
import type { TEnvironmentName } from '../staff/session';
import { cachedAttempts, withResponse } from '../timeline/attempts-of-message';
import { toTimelineAttempt } from '../timeline/message-delivery';
import type { TTimelineAttempt, TTimelineWebhook } from '../timeline/timeline-types';
import { webhookSecretFingerprint } from '../webhooks/webhook-settings';
import { forwardsOf } from '../forward/forwards';
import { caseMessageIds } from './case-message-ids';
import { currentGrant, grantOfPayload } from './case-grants';
import { messageAcrossWebhooks, type TMessageHead, type TPerWebhook } from './message-across-webhooks';
import { deliveryStory, type TStoryCache } from '../recover/delivery-story';

// Search → case: the messages a term names (through the service's message tags, EXT, and through
// what this console's receivers stored), each joined for EVERY webhook of the account with its
// attempts, the receipts at that webhook's receiver, the reconciliation and the explanation.
// In steps: the ids (case-message-ids.ts), each message per webhook (message-across-webhooks.ts),
// their attempts, the receipts, the join per message, then the grants they name (case-grants.ts).

const UNKNOWN_TERM =
  'Not an id this console knows (msg_…, evt_…, ep_…, a grant UUID, a GC-XXXXXX tracking id, an e-mail address or a donor’s first and last name): searched the bodies and headers of received requests for the text.';

type TFound = { id: string; head: TMessageHead | null; per: TPerWebhook[] };

/** What every message of the case is joined against. */
type TCaseJoin = {
  webhooks: TTimelineWebhook[];
  receivers: TReceiver[];
  addresses: TConsoleAddresses;
  /** Attempts by `messageId|webhookId`, oldest first, the newest with its response. */
  attemptsOf: Map<string, TTimelineAttempt[]>;
  everyReceipt: Awaited<ReturnType<typeof receiptSummariesOf>>;
  receipts: ReturnType<typeof keyByMessageAndReceiver>;
  forwards: Awaited<ReturnType<typeof forwardsOf>>;
  asOf: Date;
  now: Date;
  times?: TExplainTimes;
  /** The outages and runs the deliveries' stories read (delivery-story.ts), once per case. */
  stories: TStoryCache;
};

/** The grants the case's messages name: from a payload that carries one, or (payload erased or purged) from a `grant:` tag. */
type TGrantsSeen = { payloads: Map<string, TGrant>; tags: Map<string, string | undefined> };

/** Attempts of every (message, webhook) the service queued; the newest with its response body. */
async function readAttempts(envName: TEnvironmentName, api: ConnectApi, found: TFound[]): Promise<Map<string, TTimelineAttempt[]>> {
  const queued = found.flatMap((f) =>
    f.per.flatMap((p) => (p.message && p.message.attemptCount > 0 ? [{ id: f.id, webhookId: p.webhook.id, message: p.message }] : [])),
  );
  const lists = await mapLimit(queued, 6, async ({ id, webhookId, message }) => {
    // Sent with the message (EXT withAttempts), or asked for: cached while the attempt count and
    // status stand still (the case page re-asks every few seconds).
    const sent = message.attempts && message.attempts.length >= message.attemptCount ? message.attempts : null;
    const list = [...(sent ?? (await cachedAttempts(envName, api, webhookId, { id, ...message })))];
    const last = list[list.length - 1];
    const known = sent && message.lastAttempt?.id === last?.id && message.lastAttempt?.response !== undefined ? message.lastAttempt : null;
    if (last)
      list[list.length - 1] = known
        ? { ...last, response: known.response, ...(known.responsePurged ? { responsePurged: known.responsePurged } : {}) }
        : await withResponse(api, webhookId, id, last);
    return [`${id}|${webhookId}`, list.map(toTimelineAttempt)] as const;
  });
  return new Map(lists);
}

/** One message at each webhook that has it: joined with its receipts, worst first. */
async function caseDeliveries(
  api: ConnectApi,
  f: TFound,
  message: { id: string; eventType: string; timestamp: string },
  ctx: TCaseJoin,
): Promise<TCaseDelivery[]> {
  const { receivers, addresses, receipts, webhooks, asOf, now, times } = ctx;
  const deliveries = await mapLimit(f.head ? f.per : [], 4, async ({ webhook, message: m }): Promise<TCaseDelivery> => {
    const delivery: TJoinDelivery | null = m
      ? {
          status: m.status,
          attemptCount: m.attemptCount,
          nextAttempt: m.nextAttempt ? new Date(m.nextAttempt).toISOString() : null,
          attempts: ctx.attemptsOf.get(`${f.id}|${webhook.id}`) ?? [],
          complete: true,
          ...stoppedOf(m),
        }
      : null;
    const input = { message, webhook, webhookUrl: webhook.url, delivery, receivers, addresses, receipts, siblings: webhooks, asOf, now, times };
    let joined = joinDelivery(input);
    if (joined.reconciliation === 'received-bad-signature')
      joined = joinDelivery({ ...input, webhookFingerprint: await webhookSecretFingerprint(api, webhook.id) });
    // Not queued for a webhook that never wanted it: nothing to tell, and no call to learn it.
    const wanted = webhook.eventTypes.length === 0 || webhook.eventTypes.includes(message.eventType);
    const story =
      m || wanted
        ? await deliveryStory(
            api,
            ctx.stories,
            webhook.id,
            message,
            m ? { status: m.status, attemptCount: m.attemptCount, recoverRunId: m.recoverRunId } : null,
            now,
          )
        : null;
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
      story,
      ...(joined.suspiciousArrivals ? { suspiciousArrivals: joined.suspiciousArrivals } : {}),
    };
  });
  return deliveries.sort((a, b) => SEVERITY.indexOf(a.reconciliation) - SEVERITY.indexOf(b.reconciliation));
}

/** One message of the case, or null (with a note) when neither the service nor a receiver knows it; the grant it names goes to `seen`. */
async function caseMessage(api: ConnectApi, f: TFound, ctx: TCaseJoin, seen: TGrantsSeen, notes: string[]): Promise<TCaseMessage | null> {
  const everyReceiptOfMessage = ctx.everyReceipt.filter((r) => r.messageId === f.id);
  if (!f.head && everyReceiptOfMessage.length === 0) {
    notes.push(`The service knows no message ${f.id} for this account, and none of this console’s receivers got it.`);
    return null;
  }
  const head = f.head;
  const payloadGrant = head ? grantOfPayload(head.payload) : null;
  const test = head ? head.tags.includes('test') || (payloadGrant?.metadata as Record<string, unknown> | undefined)?.test === 'true' : false;
  if (payloadGrant && !test) seen.payloads.set(payloadGrant.id, payloadGrant);
  // An erased (or purged) payload no longer carries its grant; the message's tag still names it,
  // and the service still has its amount, fee, fund, status and ids: the card stays.
  const taggedGrant = head?.tags.find((t) => t.startsWith('grant:'))?.slice('grant:'.length);
  const gone = head ? payloadGone(head.payload) : null;
  if (!payloadGrant && taggedGrant && !test && gone) seen.tags.set(taggedGrant, gone.kind === 'erased' ? gone.at : undefined);
  if (!head) notes.push(`The service knows no message ${f.id} for this account: only what this console’s receivers got is shown.`);
  const message = { id: f.id, eventType: head?.eventType ?? 'unknown', timestamp: head?.timestamp ?? everyReceiptOfMessage[0].receivedAt.toISOString() };
  const deliveries = await caseDeliveries(api, f, message, ctx);
  const explained = new Set(deliveries.flatMap((d) => d.receipts.map((r) => r.id)));
  return {
    id: f.id,
    eventId: head?.eventId ?? null,
    eventType: message.eventType,
    timestamp: message.timestamp,
    // A purged payload no longer names its grant; the message's tags still do.
    grantId: test ? null : (payloadGrant?.id ?? taggedGrant ?? null),
    test,
    payloadGone: gone,
    deliveries,
    otherReceipts: everyReceiptOfMessage.filter((r) => !explained.has(r.id)).map(toTimelineReceipt),
    forwards: ctx.forwards
      .filter((fw) => everyReceiptOfMessage.some((r) => r.id === fw.receiptId))
      .map(({ id, receiptId, at, actor, url, mode, status, elapsedMs, error }) => ({ id, receiptId, at, actor, url, mode, status, elapsedMs, error })),
  };
}

/** The grants the messages named (and the one searched for), as the service has them now. */
async function caseGrants(api: ConnectApi, kind: TCase['kind'], q: string, seen: TGrantsSeen): Promise<TCaseGrant[]> {
  const grantIds = [...new Set([...seen.payloads.keys(), ...seen.tags.keys()])];
  if (kind === 'grant-id' && !grantIds.includes(q)) grantIds.unshift(q);
  const grants = await mapLimit(grantIds, 4, (id) => currentGrant(api, id, seen.payloads.get(id) ?? null, seen.tags.get(id)));
  return grants.filter((g): g is TCaseGrant => g !== null);
}

export async function buildCase(envName: TEnvironmentName, api: ConnectApi, raw: string, { times }: { times?: TExplainTimes } = {}): Promise<TCase> {
  const { kind, q } = classifyQuery(raw);
  const asOf = new Date();
  const now = asOf;
  const notes: string[] = [];
  const result: TCase = { query: q, kind, grants: [], messages: [], notes, fetchedAt: now.toISOString() };
  if (kind === 'webhook-id') return { ...result, redirect: `/webhooks/${encodeURIComponent(q)}` };
  if (kind === 'unknown') notes.push(UNKNOWN_TERM);

  const ids = await caseMessageIds(api, kind, q, notes);
  const [{ webhooks, listed }, receivers] = await Promise.all([accountWebhooks(envName, api), listReceivers()]);
  if (!listed) notes.push('This service does not list webhooks (an extension): the case covers the webhooks this console tracks.');
  const addresses = await consoleAddresses();
  const found = await mapLimit(ids, 3, async (id) => ({ id, ...(await messageAcrossWebhooks(api, id, webhooks)) }));
  const attemptsOf = await readAttempts(envName, api, found);
  // Every receipt, read after the API: one the API's answer already counts is never cut (reconcile.ts).
  const everyReceipt = await receiptSummariesOf(ids);
  const ctx: TCaseJoin = {
    webhooks,
    receivers,
    addresses,
    attemptsOf,
    everyReceipt,
    receipts: keyByMessageAndReceiver(everyReceipt),
    forwards: await forwardsOf(everyReceipt.map((r) => r.id)),
    asOf,
    now,
    times,
    stories: new Map(),
  };

  const seen: TGrantsSeen = { payloads: new Map(), tags: new Map() };
  const messages: TCaseMessage[] = [];
  for (const f of found) {
    const message = await caseMessage(api, f, ctx, seen, notes);
    if (message) messages.push(message);
  }
  messages.sort((a, b) => b.timestamp.localeCompare(a.timestamp));

  result.grants = await caseGrants(api, kind, q, seen);
  if (result.grants.length && messages.length === 0) {
    notes.push('The service holds no message for this grant: no webhook of the account was subscribed when it was made.');
  }
  if (!messages.length && !result.grants.length && !notes.length) notes.push(`Nothing found for “${q}” in the ${envName} API or in this console’s receivers.`);
  result.messages = messages;
  return result;
}
