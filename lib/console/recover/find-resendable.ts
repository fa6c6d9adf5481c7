import 'server-only';
import { ConnectApiError, type ConnectApi, type TMessage } from '@/lib/console/connect-api';
import { claimArrivals, receiversOfDelivery } from '../timeline/join-delivery';
import { isAcknowledged } from '../timeline/reconcile';
import { accountWebhooks } from '../webhooks/account-webhooks';
import { mapLimit } from '../map-limit';
import { receiptKey, receiptSummariesAt, troubledMessageIds } from '../receivers/receipts-by-message';
import { listReceivers, type TReceiver } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import type { TConsoleAddresses } from '../receivers/receiver-urls';
import type { TEnvironmentName } from '../staff/session';
import { webhookSettings } from '../webhooks/webhook-settings';
import { getTrackedWebhook } from '../webhooks/tracked-webhooks';
import type { TTimelineWebhook } from '../timeline/timeline-types';
import type { TResendWindow } from './recover-window';

// What a "re-send" of a window would send again: the messages the service counts as delivered to
// this webhook (status success) whose arrival at this console's receiver for it failed signature
// verification or was answered with an error, and has not arrived well since. Found from the
// receipts of the window (by arrival time), then each message's status asked of the API. At a
// receiver several webhooks send to from different addresses (127.0.0.1 and localhost, say), only
// the arrivals that came to this webhook's own address count, as on its timeline (join-delivery.ts).

/** Messages one run re-sends at most; the preview says "at least" beyond it. */
export const RESEND_MAX_MESSAGES = 500;
const LOOKUP_CONCURRENCY = 6;

export type TResendTarget = {
  webhookId: string;
  disabled: boolean;
  receiver: Pick<TReceiver, 'id' | 'name' | 'slug'> | null;
};

export type TResendable = TResendTarget & {
  since: string;
  until: string;
  /** Newest arrival first, at most RESEND_MAX_MESSAGES. */
  messageIds: string[];
  /** There are more than RESEND_MAX_MESSAGES. */
  truncated: boolean;
};

/** What the recover card shows before a re-send. */
export type TResendPreview = Pick<TResendable, 'truncated' | 'receiver' | 'disabled'> & { messages: number };

/** The webhook (its URL from the API, or from what this console tracked) and the receiver it reaches. */
async function resendTarget(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
): Promise<TResendTarget & { url: string; receivers: TReceiver[]; addresses: TConsoleAddresses }> {
  const [webhook, tracked, receivers, addresses] = await Promise.all([
    webhookSettings(api, webhookId),
    getTrackedWebhook(envName, webhookId),
    listReceivers(),
    consoleAddresses(),
  ]);
  const url = webhook?.url ?? tracked?.url ?? '';
  const receiver = receiversOfDelivery([], url, receivers, addresses)[0] ?? null;
  return {
    webhookId,
    disabled: webhook?.disabled ?? false,
    receiver: receiver ? { id: receiver.id, name: receiver.name, slug: receiver.slug } : null,
    url,
    receivers,
    addresses,
  };
}

/**
 * The delivered messages whose own arrivals (those this webhook claims at its receiver) include a
 * failed one with no acknowledged arrival after it: another webhook's failed arrival at a shared
 * receiver is not this webhook's to re-send, nor is one this webhook's later arrival already fixed.
 */
async function failedHere(
  messages: TMessage[],
  url: string,
  receiver: TReceiver,
  siblings: TTimelineWebhook[],
  addresses: TConsoleAddresses,
): Promise<TMessage[]> {
  const arrivals = await receiptSummariesAt(
    messages.map((m) => m.id),
    [receiver.id],
  );
  return messages.filter((m) => {
    const { claimed } = claimArrivals({
      message: m,
      ownUrls: [url],
      targets: [receiver],
      siblings,
      addresses,
      receipts: arrivals.get(receiptKey(m.id, receiver.id)) ?? [],
    });
    const lastFailed = claimed.findLastIndex((r) => !isAcknowledged(r));
    return lastFailed >= 0 && !claimed.slice(lastFailed + 1).some(isAcknowledged);
  });
}

const delivered = (m: TMessage | null): m is TMessage => m?.status === 'success';

/** The preview of a re-send, and the list a run works through. */
export async function findResendable(envName: TEnvironmentName, api: ConnectApi, webhookId: string, window: TResendWindow): Promise<TResendable> {
  // The account's webhooks read now (not the timeline's few-seconds cache): one made a moment ago may share the receiver.
  const [{ url, receivers, addresses, ...target }, account] = await Promise.all([resendTarget(envName, api, webhookId), accountWebhooks(envName, api)]);
  const siblings = account.webhooks.filter((w) => w.id !== webhookId);
  const receiver = target.receiver ? (receivers.find((r) => r.id === target.receiver!.id) ?? null) : null;
  // "Fixed since" is per address when another webhook reaches this receiver by another one: its
  // verified arrival does not fix this webhook's failed one (failedHere decides, per webhook).
  const sharedByAddress =
    receiver !== null && siblings.some((w) => w.url !== url && receiversOfDelivery([], w.url, receivers, addresses)[0]?.id === receiver.id);
  const ids = receiver ? await troubledMessageIds([receiver.id], window.since, window.until, RESEND_MAX_MESSAGES + 1, { unfixed: !sharedByAddress }) : [];
  const messages: (TMessage | null)[] = await mapLimit(ids, LOOKUP_CONCURRENCY, (id) =>
    // A message of this id that was not sent to this webhook (another webhook's, at a shared receiver) is none of its business.
    api
      .get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhookId, messageId: id } } })
      .catch((err) => (err instanceof ConnectApiError && err.status === 404 ? null : Promise.reject(err))),
  );
  const found = receiver ? (await failedHere(messages.filter(delivered), url, receiver, siblings, addresses)).map((m) => m.id) : [];
  return {
    ...target,
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    messageIds: found.slice(0, RESEND_MAX_MESSAGES),
    truncated: ids.length > RESEND_MAX_MESSAGES,
  };
}
