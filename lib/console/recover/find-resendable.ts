import 'server-only';
import { ConnectApiError, type ConnectApi, type TMessage } from '@/lib/console/connect-api';
import { receiversOfDelivery } from '../timeline/join-delivery';
import { mapLimit } from '../map-limit';
import { troubledMessageIds } from '../receivers/receipts-by-message';
import { listReceivers, type TReceiver } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import type { TEnvironmentName } from '../staff/session';
import { webhookSettings } from '../timeline/timeline';
import { getTrackedWebhook } from '../tracked-webhooks';
import type { TResendWindow } from './recover-window';

// What a "re-send" of a window would send again: the messages the service counts as delivered to
// this webhook (status success) whose arrival at this console's receiver for it failed signature
// verification or was answered with an error, and has not arrived well since. Found from the
// receipts of the window (by arrival time), then each message's status asked of the API.

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
async function resendTarget(envName: TEnvironmentName, api: ConnectApi, webhookId: string): Promise<TResendTarget> {
  const [webhook, tracked, receivers, addresses] = await Promise.all([webhookSettings(api, webhookId), getTrackedWebhook(envName, webhookId), listReceivers(), consoleAddresses()]);
  const url = webhook?.url ?? tracked?.url ?? '';
  const receiver = receiversOfDelivery([], url, receivers, addresses)[0] ?? null;
  return { webhookId, disabled: webhook?.disabled ?? false, receiver: receiver ? { id: receiver.id, name: receiver.name, slug: receiver.slug } : null };
}

const delivered = (m: TMessage | null): m is TMessage => m?.status === 'success';

/** The preview of a re-send, and the list a run works through. */
export async function findResendable(envName: TEnvironmentName, api: ConnectApi, webhookId: string, window: TResendWindow): Promise<TResendable> {
  const target = await resendTarget(envName, api, webhookId);
  const ids = target.receiver ? await troubledMessageIds([target.receiver.id], window.since, window.until, RESEND_MAX_MESSAGES + 1, { unfixed: true }) : [];
  const messages = await mapLimit(ids, LOOKUP_CONCURRENCY, (id) =>
    // A message of this id that was not sent to this webhook (another webhook's, at a shared receiver) is none of its business.
    api.getMessage(webhookId, id).catch((err) => (err instanceof ConnectApiError && err.status === 404 ? null : Promise.reject(err))),
  );
  const found = messages.filter(delivered).map((m) => m.id);
  return {
    ...target,
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    messageIds: found.slice(0, RESEND_MAX_MESSAGES),
    truncated: ids.length > RESEND_MAX_MESSAGES,
  };
}
