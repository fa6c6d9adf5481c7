import { explainDelivery } from './explain-delivery';
import { receiptKey, type TReceiptSummary } from './receipts-by-message';
import { receiverForUrl, type TReceiverLike } from './receiver-urls';
import { reconcile, type TReconciliation } from './reconcile';
import { secretFingerprint } from './secret-fingerprint';
import type { TReceiverRef, TTimelineAttempt, TTimelineReceipt, TTimelineWebhook } from './timeline-types';

// The join of one message × one webhook: the webhook's delivery and attempts (from the API) with
// the receipts at the receiver those attempts were sent to (from this console's store), then the
// reconciliation state and the sentence that explains it. Pure; the loaders fetch, this decides.

export type TJoinDelivery = {
  status: string;
  attemptCount: number;
  nextAttempt: string | null;
  /** Oldest first; at least the newest when the service reported one. */
  attempts: TTimelineAttempt[];
  /** True when `attempts` is every attempt (the response codes of all of them are known). */
  complete: boolean;
};

export type TJoinReceiver = TReceiverLike & { name: string; secrets?: string[] };

export type TJoinInput<R extends TJoinReceiver> = {
  message: { id: string; eventType: string; timestamp: string };
  webhook: TTimelineWebhook | null;
  /** The webhook's URL now (its settings, or what the console recorded when it tracked it). */
  webhookUrl: string;
  /** null: the service did not queue the message for this webhook. */
  delivery: TJoinDelivery | null;
  receivers: readonly R[];
  consoleUrl: string;
  receipts: Map<string, TReceiptSummary[]>;
  /** The webhook's secret's fingerprint (asked of the service only when a signature failed). */
  webhookFingerprint?: string | null;
  now: Date;
};

export type TJoined = {
  receiver: TReceiverRef | null;
  receipts: TTimelineReceipt[];
  reconciliation: TReconciliation;
  explanation: string;
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
  };
}

/**
 * The receivers a delivery went to: those of its attempts' URLs (history stays right after the
 * webhook's URL changes), else the one of the webhook's current URL (nothing sent yet).
 */
export function receiversOfDelivery<R extends TReceiverLike>(attemptUrls: string[], webhookUrl: string, receivers: readonly R[], consoleUrl: string): R[] {
  const urls = attemptUrls.length ? [...new Set(attemptUrls)] : webhookUrl ? [webhookUrl] : [];
  const found = urls.map((u) => receiverForUrl(u, receivers, consoleUrl)).filter((r): r is R => r !== null);
  return [...new Map(found.map((r) => [r.id, r])).values()];
}

export function joinDelivery<R extends TJoinReceiver>(input: TJoinInput<R>): TJoined {
  const { message, delivery, now } = input;
  const attempts = delivery?.attempts ?? [];
  const targets = receiversOfDelivery(
    attempts.map((a) => a.url),
    input.webhookUrl,
    input.receivers,
    input.consoleUrl,
  );
  // Nothing was queued for this webhook: arrivals at a receiver it shares are another webhook's.
  const summaries = !delivery
    ? []
    : targets
    .flatMap((r) => input.receipts.get(receiptKey(message.id, r.id)) ?? [])
    .sort((a, b) => a.id - b.id);
  const receipts = summaries.map(toTimelineReceipt);
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
    receipts,
  });
  const receiver = targets[0] ? { id: targets[0].id, name: targets[0].name, slug: targets[0].slug } : null;
  const explanation = explainDelivery({
    state: reconciliation,
    now,
    message,
    webhook: input.webhook,
    delivery: delivery ? { status: delivery.status, attemptCount: delivery.attemptCount, nextAttempt: delivery.nextAttempt, attempts } : null,
    receiverName: receiver?.name ?? null,
    receipts,
    fingerprints:
      input.webhookFingerprint !== undefined ? { webhook: input.webhookFingerprint, receiver: (targets[0]?.secrets ?? []).map(secretFingerprint) } : null,
  });
  return { receiver, receipts, reconciliation, explanation };
}
