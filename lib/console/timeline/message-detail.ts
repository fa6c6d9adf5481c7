import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { allAttempts, ATTEMPT_FETCH_CONCURRENCY, withResponse } from './attempts-of-message';
import { joinDelivery, receiversOfDelivery, stoppedOf, type TJoinDelivery } from './join-delivery';
import { toTimelineAttempt } from './message-delivery';
import { mapLimit } from '../map-limit';
import { receiptSummariesAt } from '../receivers/receipts-by-message';
import { listReceivers } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import { siblingWebhooks } from './sibling-webhooks';
import type { TEnvironmentName } from '../staff/session';
import type { TDeliveryEvent, TMessageDetail } from './timeline-types';
import { getTrackedWebhook } from '../webhooks/tracked-webhooks';
import { toWebhookView } from '../webhooks/webhook-view';
import { webhookSecretFingerprint, webhookSettings } from '../webhooks/webhook-settings';
import { deliveryStory } from '../recover/delivery-story';

// One message at one webhook in full, for the message page and the JSON route it polls: every
// attempt with its response body, the receipts at the receiver they went to, and both in the
// order they happened.

export async function loadMessageDetail(envName: TEnvironmentName, api: ConnectApi, webhookId: string, messageId: string): Promise<TMessageDetail> {
  const asOf = new Date();
  const [message, attemptList, webhook, tracked, receivers, addresses] = await Promise.all([
    api.get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhookId, messageId } } }),
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
  const receipts = await receiptSummariesAt(
    [messageId],
    targets.map((r) => r.id),
  );
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
  const story = await deliveryStory(
    api,
    new Map(),
    webhookId,
    message,
    { status: message.status, attemptCount: message.attemptCount, recoverRunId: message.recoverRunId },
    now,
  );
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
      ...(joined.suspiciousArrivals ? { suspiciousArrivals: joined.suspiciousArrivals } : {}),
      payload: message.payload ?? null,
    },
    receiver: joined.receiver,
    story,
    attempts,
    events,
    fetchedAt: now.toISOString(),
  };
}
