import type { TAttempt, TMessage } from './connect-api/schemas';
import type { TReceipt } from './receivers';

// What the API says it sent beside what arrived, per message.

export type TReconciliation =
  | 'delivered-and-received'
  | 'received-answered-error'
  | 'attempted-not-received'
  | 'received-not-attempted'
  | 'duplicate'
  | 'pending';

export const RECONCILIATION_LABELS: Record<TReconciliation, string> = {
  'delivered-and-received': 'delivered and received',
  'received-answered-error': 'received, answered error',
  'attempted-not-received': 'attempted but not received',
  'received-not-attempted': 'received but not attempted',
  duplicate: 'duplicate',
  pending: 'pending',
};

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * `attempts` null when not loaded: then the message's attemptCount and status stand in.
 * `receipts` are those carrying this message's id (webhook-id).
 *
 * A retry after a failed attempt arrives with the same webhook-id, so "seen before" alone is not a
 * duplicate: a message is a duplicate when it arrived more often than the API says it sent it, or
 * arrived again after the receiver had already acknowledged it with a 2xx.
 */
export function reconcile(
  message: Pick<TMessage, 'id' | 'status' | 'attemptCount'>,
  attempts: Pick<TAttempt, 'status'>[] | null,
  receipts: Pick<TReceipt, 'messageId' | 'responseStatus'>[],
): TReconciliation {
  const mine = receipts.filter((r) => r.messageId === message.id);
  const attemptCount = attempts ? attempts.length : message.attemptCount;
  const succeeded = attempts ? attempts.some((a) => a.status === 'success') : message.status === 'success';
  const acknowledged = mine.filter((r) => is2xx(r.responseStatus)).length;
  if (mine.length > 0 && attemptCount === 0) return 'received-not-attempted';
  if (mine.length > attemptCount || acknowledged > 1) return 'duplicate';
  if (mine.length > 0 && succeeded) return 'delivered-and-received';
  if (mine.length > 0) return acknowledged > 0 ? 'delivered-and-received' : 'received-answered-error';
  if (attemptCount > 0) return 'attempted-not-received';
  return 'pending';
}
