import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { DELIVERY_USER_AGENT } from '@/lib/constants';
import { signatureHeader } from '@/lib/crypto/standard-webhooks';
import { env } from '@/lib/env';
import { getReceipts } from '../receivers';
import type { TReceipt } from '../receivers/types';
import { payloadGone } from '../retention/body-gone';
import type { TMessageDetail } from '../timeline/timeline-types';
import { curlCommand, type TCurlCommand, type TMessageCurls } from './curl-command';

// The two things "Copy as cURL" is offered for (operators and admins only: a viewer gets no command,
// so nothing masked or secret has to be left out of one):
//   a receipt  its stored method, headers and bytes, to the address it came to on this console
//              (CONSOLE_PUBLIC_URL + its path and query);
//   an attempt the request the service sent: the message payload's bytes, the delivery headers in
//              the service's order, signed at the attempt's time under the webhook's current secret
//              (during a rotation the service also signed with the previous one, which the API no
//              longer gives) — or unsigned, with a comment, when the secret cannot be read.

/** null when the receipt's body is not kept (over the size limit, purged, erased). */
export function receiptCurl(r: TReceipt): TCurlCommand | null {
  if (r.body === null && r.bodySize > 0) return null;
  const query = r.query.replace(/^\?/, '');
  return curlCommand({ method: r.method, url: `${env.CONSOLE_PUBLIC_URL}${r.path}${query ? `?${query}` : ''}`, headers: r.headers, body: r.body });
}

export function attemptCurl(input: { url: string; messageId: string; timestamp: string; body: string; secret: string | null }): TCurlCommand {
  const at = new Date(input.timestamp);
  const seconds = String(Math.floor(at.getTime() / 1000));
  const signature = input.secret ? signatureHeader([input.secret], input.messageId, at, input.body) : null;
  const headers: [string, string][] = [
    ['content-type', 'application/json'],
    ['user-agent', DELIVERY_USER_AGENT],
    ['webhook-id', input.messageId],
    ['webhook-timestamp', seconds],
    ...(signature ? ([['webhook-signature', signature]] as [string, string][]) : []),
    ['svix-id', input.messageId],
    ['svix-timestamp', seconds],
    ...(signature ? ([['svix-signature', signature]] as [string, string][]) : []),
  ];
  const made = curlCommand({ method: 'POST', url: input.url, headers, body: Buffer.from(input.body) });
  return signature ? made : { ...made, command: `# Unsigned: the webhook's secret could not be read from the API.\n${made.command}` };
}

/** The commands of a message's attempts and receipts, as a message's page and timeline row show them. */
export async function messageCurls(
  api: ConnectApi,
  detail: Pick<TMessageDetail, 'webhookId' | 'message' | 'events'>,
  stored?: TReceipt[],
): Promise<TMessageCurls> {
  const m = detail.message;
  const sentBody = m.payload !== undefined && !payloadGone(m.payload) ? JSON.stringify(m.payload) : null;
  const attempts = detail.events.flatMap((e) => (e.kind === 'attempt' ? [e.attempt] : []));
  const secret =
    sentBody !== null && attempts.length
      ? await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: detail.webhookId } } }).then(
          (s) => s.key,
          () => null,
        )
      : null;
  const receipts = stored ?? (await getReceipts(detail.events.flatMap((e) => (e.kind === 'receipt' ? [e.receipt.id] : []))));
  return {
    attempts: Object.fromEntries(
      sentBody === null ? [] : attempts.map((a) => [a.id, attemptCurl({ url: a.url, messageId: m.id, timestamp: a.timestamp, body: sentBody, secret })]),
    ),
    receipts: Object.fromEntries(
      receipts.flatMap((r) => {
        const c = receiptCurl(r);
        return c ? [[r.id, c]] : [];
      }),
    ),
  };
}
