import { failedCheck, suspiciousArrivals } from '../timeline/reconcile';
import { receiptKey, receiptSummariesAt } from './receipts-by-message';
import type { TReceipt } from './';

// Whether one receipt is a suspicious arrival (lib/console/timeline/reconcile.ts): a copy whose
// signature did not verify beside the service's verified delivery of its message at this receiver.
// The receipt page says so, and what to do instead of a resend.

export type TReceiptSuspicion = { verifiedReceiptId: number; verifiedAt: string };

/** `attemptCount`: the service's attempts of the message to the webhook that sent it (0 when no webhook of the account did). */
export async function receiptSuspicion(
  receipt: Pick<TReceipt, 'id' | 'receiverId' | 'messageId' | 'verdict'>,
  attemptCount: number,
): Promise<TReceiptSuspicion | null> {
  if (!receipt.messageId || !failedCheck(receipt.verdict)) return null;
  const arrivals = (await receiptSummariesAt([receipt.messageId], [receipt.receiverId])).get(receiptKey(receipt.messageId, receipt.receiverId)) ?? [];
  const flags = suspiciousArrivals(arrivals, attemptCount);
  if (!flags?.[arrivals.findIndex((r) => r.id === receipt.id)]) return null;
  const verified = arrivals.filter((r) => r.verdict === 'valid');
  const best = verified.find((r) => r.responseStatus >= 200 && r.responseStatus < 300) ?? verified[0];
  return { verifiedReceiptId: best.id, verifiedAt: best.receivedAt.toISOString() };
}
