import { ingestUrl } from './manage-receivers';
import type { TReceipt, TReceiver } from './types';

// Receivers and receipts as the console's JSON routes answer them.

/** A receipt as JSON: the body as base64 and, when it is UTF-8 text, as text too. */
export function receiptJson(r: TReceipt) {
  let bodyText: string | null = null;
  if (r.body) {
    try {
      bodyText = new TextDecoder('utf-8', { fatal: true }).decode(r.body);
    } catch {
      bodyText = null;
    }
  }
  return {
    id: r.id,
    receiverId: r.receiverId,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: r.body ? Buffer.from(r.body).toString('base64') : null,
    bodyText,
    bodySize: r.bodySize,
    oversize: r.oversize,
    sourceIp: r.sourceIp,
    receivedAt: r.receivedAt.toISOString(),
    messageId: r.messageId,
    verdict: r.verdict,
    verdictReason: r.verdictReason,
    duplicate: r.duplicate,
    responseStatus: r.responseStatus,
    bodyGone: r.bodyGone,
  };
}

export function receiverJson(r: TReceiver) {
  return { ...r, ingestUrl: ingestUrl(r.slug), createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() };
}
