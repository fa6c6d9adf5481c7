import { explainDelivery, type TExplainTimes } from './explain-delivery';
import { receiptKey, type TReceiptSummary } from '../receivers/receipts-by-message';
import { hostMatchesUrl, receiverForUrl, sameDestination, type TConsoleAddresses, type TReceiverLike } from '../receivers/receiver-urls';
import { isAcknowledged, reconcile, suspiciousArrivals, type TReconciliation } from './reconcile';
import { secretFingerprint } from '../secret-fingerprint';
import type { TReceiverRef, TTimelineAttempt, TTimelineReceipt, TTimelineWebhook } from './timeline-types';

// The join of one message × one webhook: the webhook's delivery and attempts (from the API) with
// the receipts at the receiver those attempts were sent to (from this console's store), then the
// reconciliation state and the sentence that explains it. Pure; the loaders fetch, this decides.
//
// Several webhooks of an account may reach one receiver, and all get the same message id. Each
// claims the arrivals that came to its own URL's address (the receipt's host); an arrival under an
// address none of them uses (a proxy's name), or stored before hosts were kept, is claimed by all.
// Webhooks with exactly the same URL cannot be told apart: each shows every arrival, says so, and
// a second copy is not a duplicate.

export type TJoinDelivery = {
  status: string;
  attemptCount: number;
  nextAttempt: string | null;
  /** Oldest first; at least the newest when the service reported one. */
  attempts: TTimelineAttempt[];
  /** True when `attempts` is every attempt (the response codes of all of them are known). */
  complete: boolean;
  /** EXT: why the service stopped its retries early (a donor erasure, retention), and when. */
  retriesStopped?: { reason: string; at: string } | null;
};

/** The message's `retriesStopped`, when the service says it, as a join delivery carries it. */
export const stoppedOf = (m: { retriesStopped?: { reason: string; at: string } | null }) => (m.retriesStopped ? { retriesStopped: m.retriesStopped } : {});

export type TJoinReceiver = TReceiverLike & { name: string; secrets?: string[] };

export type TJoinInput<R extends TJoinReceiver> = {
  message: { id: string; eventType: string; timestamp: string };
  webhook: TTimelineWebhook | null;
  /** The webhook's URL now (its settings, or what the console recorded when it tracked it). */
  webhookUrl: string;
  /** null: the service did not queue the message for this webhook. */
  delivery: TJoinDelivery | null;
  receivers: readonly R[];
  /** Where this console's receivers are reached (or just the console's URL). */
  addresses: TConsoleAddresses | string;
  receipts: Map<string, TReceiptSummary[]>;
  /** The account's other webhooks that got this message (to split a shared receiver's arrivals). */
  siblings?: readonly TSibling[];
  /** The webhook's secret's fingerprint (asked of the service only when a signature failed). */
  webhookFingerprint?: string | null;
  /** When the caller began reading the API: later receipts are newer than its answer. */
  asOf?: Date;
  now: Date;
  /** How the explanation says times: 'absolute' for exports (see explainDelivery). */
  times?: TExplainTimes;
};

export type TSibling = { id: string; url: string; eventTypes: string[]; createdAt: string };

export type TJoined = {
  receiver: TReceiverRef | null;
  receipts: TTimelineReceipt[];
  reconciliation: TReconciliation;
  explanation: string;
  /** Other webhooks with exactly this URL: their arrivals are shown here too. */
  sharedUrlWith: string[];
  /** Arrivals at this receiver claimed by another webhook (they came to its address). */
  otherArrivals: number;
  /** Copies that did not verify beside the service's verified delivery (reconcile.ts, suspiciousArrivals). */
  suspiciousArrivals: number;
};

export function toTimelineReceipt(r: TReceiptSummary): TTimelineReceipt {
  return {
    id: r.id,
    receiverId: r.receiverId,
    receivedAt: r.receivedAt.toISOString(),
    verdict: r.verdict,
    verdictReason: r.verdictReason,
    duplicate: r.duplicate,
    responseStatus: r.responseStatus,
    bodySize: r.bodySize,
    host: r.host,
    ...(r.bodyGone ? { bodyGone: r.bodyGone } : {}),
  };
}

/**
 * The receivers a delivery went to: those of its attempts' URLs (history stays right after the
 * webhook's URL changes), else the one of the webhook's current URL (nothing sent yet).
 */
export function receiversOfDelivery<R extends TReceiverLike>(
  attemptUrls: string[],
  webhookUrl: string,
  receivers: readonly R[],
  addresses: TConsoleAddresses | string,
): R[] {
  const found = deliveryUrls(attemptUrls, webhookUrl)
    .map((u) => receiverForUrl(u, receivers, addresses))
    .filter((r): r is R => r !== null);
  return [...new Map(found.map((r) => [r.id, r])).values()];
}

const deliveryUrls = (attemptUrls: string[], webhookUrl: string) => (attemptUrls.length ? [...new Set(attemptUrls)] : webhookUrl ? [webhookUrl] : []);

/** Whether a webhook was subscribed to this message when it was sent (an empty list: every type). */
const gotMessage = (w: TSibling, message: { eventType: string; timestamp: string }) =>
  (w.eventTypes.length === 0 || w.eventTypes.includes(message.eventType)) && w.createdAt <= message.timestamp;

/**
 * Which of the receipts at `targets` this delivery claims (see the top of this file), how many
 * webhooks share its exact URL, and how many arrivals went to the other webhooks' addresses.
 */
export function claimArrivals<R extends TReceiverLike, T extends Pick<TReceiptSummary, 'host'> = TReceiptSummary>(input: {
  message: { eventType: string; timestamp: string };
  ownUrls: string[];
  targets: readonly R[];
  siblings: readonly TSibling[];
  addresses: TConsoleAddresses | string;
  receipts: T[];
}): { claimed: T[]; sharedUrlWith: string[]; otherArrivals: number } {
  const sharers = input.siblings.filter((w) => gotMessage(w, input.message) && receiverForUrl(w.url, input.targets, input.addresses));
  const identical = sharers.filter((w) => input.ownUrls.some((u) => sameDestination(u, w.url)));
  const others = sharers.filter((w) => !identical.includes(w));
  const claims = (r: T) => !r.host || input.ownUrls.some((u) => hostMatchesUrl(r.host, u)) || !others.some((w) => hostMatchesUrl(r.host, w.url));
  const claimed = others.length ? input.receipts.filter(claims) : input.receipts;
  return { claimed, sharedUrlWith: identical.map((w) => w.id), otherArrivals: input.receipts.length - claimed.length };
}

/** A claimed arrival is a duplicate once as many earlier ones were acknowledged as there are webhooks sending to its URL. */
export function markDuplicates<T extends Pick<TReceiptSummary, 'verdict' | 'responseStatus' | 'duplicate'>>(receipts: T[], copies: number): T[] {
  let acknowledged = 0;
  return receipts.map((r) => {
    const duplicate = acknowledged >= copies;
    if (isAcknowledged(r)) acknowledged++;
    return duplicate === r.duplicate ? r : { ...r, duplicate };
  });
}

export function joinDelivery<R extends TJoinReceiver>(input: TJoinInput<R>): TJoined {
  const { message, delivery, now } = input;
  const attempts = delivery?.attempts ?? [];
  const ownUrls = deliveryUrls(
    attempts.map((a) => a.url),
    input.webhookUrl,
  );
  const targets = receiversOfDelivery(ownUrls, '', input.receivers, input.addresses);
  // Nothing was queued for this webhook: arrivals at a receiver it shares are another webhook's.
  const atTargets = !delivery ? [] : targets.flatMap((r) => input.receipts.get(receiptKey(message.id, r.id)) ?? []).sort((a, b) => a.id - b.id);
  const { claimed, sharedUrlWith, otherArrivals } = claimArrivals({
    message,
    ownUrls,
    targets,
    siblings: (input.siblings ?? []).filter((w) => w.id !== input.webhook?.id),
    addresses: input.addresses,
    receipts: atTargets,
  });
  const copies = 1 + sharedUrlWith.length;
  const summaries = markDuplicates(claimed, copies);
  const suspicious = delivery ? suspiciousArrivals(summaries, delivery.attemptCount, copies) : null;
  // A suspicious copy is listed as such, not as a duplicate of the delivery it imitates.
  const receipts = summaries.map((r, i) => (suspicious?.[i] ? { ...toTimelineReceipt(r), duplicate: false, suspicious: true as const } : toTimelineReceipt(r)));
  const last = attempts[attempts.length - 1];
  const reconciliation = reconcile({
    delivery: delivery
      ? {
          status: delivery.status,
          attemptCount: delivery.attemptCount,
          lastResponseStatusCode: last ? last.responseStatusCode : null,
          responseStatusCodes: delivery.complete ? attempts.map((a) => a.responseStatusCode) : null,
        }
      : null,
    observed: targets.length > 0,
    receipts: summaries,
    copies,
    asOf: input.asOf,
    now,
  });
  const receiver = targets[0] ? { id: targets[0].id, name: targets[0].name, slug: targets[0].slug } : null;
  const explanation = explainDelivery({
    state: reconciliation,
    now,
    message,
    webhook: input.webhook,
    delivery: delivery
      ? { status: delivery.status, attemptCount: delivery.attemptCount, nextAttempt: delivery.nextAttempt, attempts, retriesStopped: delivery.retriesStopped }
      : null,
    receiverName: receiver?.name ?? null,
    receipts,
    fingerprints:
      input.webhookFingerprint !== undefined ? { webhook: input.webhookFingerprint, receiver: (targets[0]?.secrets ?? []).map(secretFingerprint) } : null,
    sharedUrlWith,
    times: input.times,
  });
  return {
    receiver,
    receipts,
    reconciliation,
    explanation,
    sharedUrlWith,
    otherArrivals,
    suspiciousArrivals: suspicious ? suspicious.filter(Boolean).length : 0,
  };
}
