import type { TAttempt, TMessage } from './connect-api/schemas';
import type { TReceipt } from './receivers';

// What the API says it sent beside what arrived, per message.

export type TReconciliation = 'delivered-and-received' | 'attempted-not-received' | 'received-not-attempted' | 'duplicate' | 'pending';

export const RECONCILIATION_LABELS: Record<TReconciliation, string> = {
  'delivered-and-received': 'delivered and received',
  'attempted-not-received': 'attempted but not received',
  'received-not-attempted': 'received but not attempted',
  duplicate: 'duplicate',
  pending: 'pending',
};

/**
 * `attempts` null when not loaded: then the message's attemptCount and status stand in.
 * `receipts` are those carrying this message's id (webhook-id).
 */
export function reconcile(
  message: Pick<TMessage, 'id' | 'status' | 'attemptCount'>,
  attempts: Pick<TAttempt, 'status'>[] | null,
  receipts: Pick<TReceipt, 'messageId' | 'duplicate'>[],
): TReconciliation {
  const mine = receipts.filter((r) => r.messageId === message.id);
  if (mine.length > 1 || mine.some((r) => r.duplicate)) return 'duplicate';
  const attemptCount = attempts ? attempts.length : message.attemptCount;
  const succeeded = attempts ? attempts.some((a) => a.status === 'success') : message.status === 'success';
  if (mine.length > 0 && succeeded) return 'delivered-and-received';
  if (mine.length > 0 && attemptCount === 0) return 'received-not-attempted';
  if (attemptCount > 0 && mine.length === 0) return 'attempted-not-received';
  // Received, and attempted without a success yet (e.g. the receiver answered 500 on purpose):
  // it did arrive, so it counts as received.
  if (mine.length > 0) return 'delivered-and-received';
  return 'pending';
}
