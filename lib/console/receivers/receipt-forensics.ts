import 'server-only';
import { ConnectApiError, type ConnectApi } from '@/lib/console/connect-api';
import { accountWebhooks } from '../webhooks/account-webhooks';
import { hostMatchesUrl, receiverForUrl } from './receiver-urls';
import type { TReceipt, TReceiver } from './';
import { consoleAddresses } from './console-addresses';
import type { TEnvironmentName } from '../staff/session';
import { signatureForensics, type TForensics } from './signature-forensics';
import type { TTimelineWebhook } from '../timeline/timeline-types';

// The service's side of one receipt: the webhook that sent it (one whose URL is this receiver and
// whose messages include it; none when no webhook of the account did), that webhook's secret (EXT)
// and the exact body it sent.

/** `sentBody`: the payload as the service sent it (its JSON text), for the body viewer's sent vs received; null when unknown. */
export type TReceiptForensics = { webhook: TTimelineWebhook | null; forensics: TForensics; sentBody: string | null; attemptCount: number };

export async function receiptForensics(envName: TEnvironmentName, api: ConnectApi, receipt: TReceipt, receiver: TReceiver): Promise<TReceiptForensics> {
  const { webhooks } = await accountWebhooks(envName, api).catch(() => ({ webhooks: [] as TTimelineWebhook[] }));
  const addresses = await consoleAddresses();
  // The webhooks reaching this receiver; those whose URL's address the receipt came to first.
  const reaching = webhooks.filter((w) => receiverForUrl(w.url, [receiver], addresses));
  const candidates = [
    ...reaching.filter((w) => receipt.host && hostMatchesUrl(receipt.host, w.url)),
    ...reaching.filter((w) => !receipt.host || !hostMatchesUrl(receipt.host, w.url)),
  ];
  let webhook: TTimelineWebhook | null = null;
  let sentBody: string | null = null;
  let attemptCount = 0;
  for (const w of candidates) {
    if (!receipt.messageId) break;
    const message = await api
      .get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: w.id, messageId: receipt.messageId } } })
      .catch((err) => (err instanceof ConnectApiError ? null : Promise.reject(err)));
    if (!message) continue;
    webhook = w;
    attemptCount = message.attemptCount;
    // The service keeps the exact bytes it signed; its JSON re-serialises to them (keys keep their order).
    sentBody = message.payload === undefined ? null : JSON.stringify(message.payload);
    break;
  }
  const webhookSecret = webhook
    ? await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } }).then(
        (s) => s.key,
        () => null,
      )
    : null;
  return {
    webhook,
    sentBody,
    attemptCount,
    forensics: signatureForensics({
      headers: receipt.headers,
      body: receipt.body,
      receivedAt: receipt.receivedAt,
      receiverSecrets: receiver.secrets,
      webhookSecret,
      sentBody,
    }),
  };
}
