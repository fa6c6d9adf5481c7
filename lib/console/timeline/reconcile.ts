// What the API says it sent to one webhook beside what arrived at that webhook's receiver: one
// state per (message, webhook). Pure: the timeline, the case and the problems view all call it.

export const RECONCILIATIONS = [
  'delivered-and-received',
  'recording',
  'received-bad-signature',
  'received-answered-error',
  'sent-not-received',
  'network-error',
  'not-sent-yet',
  'duplicate',
  'not-observed',
  'not-sent',
] as const;
export type TReconciliation = (typeof RECONCILIATIONS)[number];

export const RECONCILIATION_LABELS: Record<TReconciliation, string> = {
  'delivered-and-received': 'delivered and received',
  recording: 'received, outcome being recorded',
  'received-bad-signature': 'received, signature not verified',
  'received-answered-error': 'received, answered error',
  'sent-not-received': 'sent but not received',
  'network-error': 'network error, never reached',
  'not-sent-yet': 'not sent yet',
  duplicate: 'duplicate',
  'not-observed': 'receiver not observed',
  'not-sent': 'not sent',
};

/** Worst first: the order a case lists a message's webhooks in. */
export const SEVERITY: readonly TReconciliation[] = [
  'received-bad-signature',
  'network-error',
  'sent-not-received',
  'received-answered-error',
  'not-observed',
  'duplicate',
  'not-sent-yet',
  'recording',
  'delivered-and-received',
  'not-sent',
];

/** What the receiving side saw go wrong, or what the sender could not do. */
const TROUBLE: ReadonlySet<TReconciliation> = new Set(['received-bad-signature', 'received-answered-error', 'sent-not-received', 'network-error']);

/**
 * For the problems view: failed, still pending past its first retry, or a state that says delivery
 * went wrong. A delivered duplicate is the receiver's to tolerate, not a failure; a message waiting
 * for its first retry is not yet a problem unless its receiver saw something wrong.
 */
export function isDeliveryProblem(m: { status: string; attemptCount: number; reconciliation: TReconciliation }): boolean {
  // Acknowledged by the receiver a moment ago: the sender is writing down a success.
  if (m.reconciliation === 'recording') return false;
  if (m.status === 'failed') return true;
  if (m.status === 'pending' && m.attemptCount >= 2) return true;
  if (m.status === 'pending' && (m.reconciliation === 'network-error' || m.reconciliation === 'sent-not-received')) return false;
  return TROUBLE.has(m.reconciliation);
}

/** A delivery problem, or a delivered message with a suspicious arrival (its own kind of problem: never a resend). */
export function isProblem(m: { status: string; attemptCount: number; reconciliation: TReconciliation; suspiciousArrivals?: number }): boolean {
  return isDeliveryProblem(m) || (m.suspiciousArrivals ?? 0) > 0;
}

export type TReconcileDelivery = {
  /** pending | sending | success | failed (this webhook's status of the message). */
  status: string;
  attemptCount: number;
  /** The newest attempt's response code (0: no response), when known. */
  lastResponseStatusCode?: number | null;
  /** Every attempt's response code when the attempts are loaded (0: no response). */
  responseStatusCodes?: number[] | null;
};

export type TReconcileReceipt = {
  verdict: string;
  responseStatus: number;
  duplicate: boolean;
  /** When it was stored; with `asOf`, whether the API's answer could already account for it. */
  receivedAt?: Date | string | number;
};

export type TReconcileInput = {
  /** null: the service did not queue this message for this webhook at all. */
  delivery: TReconcileDelivery | null;
  /** Whether the webhook's URL (or the attempts' URL) is one of this console's receivers. */
  observed: boolean;
  /** The receipts of this message at that receiver that this webhook claims, oldest first. */
  receipts: TReconcileReceipt[];
  /** How many webhooks send to exactly this URL (their arrivals cannot be told apart): 1 by default. */
  copies?: number;
  /** When the caller began reading the API: receipts stored later are newer than its answer. */
  asOf?: Date;
  now?: Date;
};

const is2xx = (status: number) => status >= 200 && status < 300;

/** How long after an acknowledged arrival the sender may still be writing its outcome. */
export const RECORDING_WINDOW_MS = 60_000;

/** A receiver that checks a signature and found it valid, or has no secret to check with. */
export const isAcknowledged = (r: { verdict: string; responseStatus: number }) =>
  is2xx(r.responseStatus) && (r.verdict === 'valid' || r.verdict === 'no secret configured');

/** A signature check that failed (an arrival at a receiver without a secret was not checked: no failure). */
export const failedCheck = (verdict: string) => verdict !== 'valid' && verdict !== 'no secret configured';

/**
 * Which arrivals of one message at one webhook's receiver are *suspicious*: a copy whose signature
 * did not verify, when the service's delivery of that message did verify there. A valid signature
 * covers the webhook-id, timestamp and body, so a copy with an altered body fails the check too.
 * After the first verified arrival the receiver acknowledged, every failed check is suspicious (the
 * service stops once it is acknowledged, and what it sends is signed); before it, failed checks
 * are the service's own attempts (a receiver holding a wrong secret, fixed, then a resend) as far
 * as its attempts not yet seen verified account for them, and suspicious beyond. A flag per arrival,
 * or null when none is (the common case, checked without allocating).
 */
export function suspiciousArrivals(receipts: readonly { verdict: string; responseStatus: number }[], attemptCount: number, copies = 1): boolean[] | null {
  let firstAcknowledged = -1;
  let verified = 0;
  let failed = 0;
  for (let i = 0; i < receipts.length; i++) {
    const r = receipts[i];
    if (r.verdict === 'valid') {
      verified++;
      if (firstAcknowledged < 0 && is2xx(r.responseStatus)) firstAcknowledged = i;
    } else if (failedCheck(r.verdict)) failed++;
  }
  if (!failed || !verified) return null;
  let explained = Math.max(0, attemptCount * copies - verified);
  let any = false;
  const flags = receipts.map((r, i) => {
    if (!failedCheck(r.verdict)) return false;
    if (!(firstAcknowledged >= 0 && i > firstAcknowledged) && explained > 0) {
      explained--;
      return false;
    }
    any = true;
    return true;
  });
  return any ? flags : null;
}

const at = (d: Date | string | number | undefined) => (d === undefined ? NaN : typeof d === 'number' ? d : typeof d === 'string' ? Date.parse(d) : d.getTime());

/**
 * The order is the order of importance. A suspicious arrival (suspiciousArrivals) does not count.
 * A failed signature check is never green, whatever the
 * sender recorded. A retry after an error answer arrives with the same webhook-id, so "seen
 * before" is not a duplicate: more arrivals than attempts, or an arrival after a verified 2xx, is.
 * An arrival the receiver acknowledged while the sender has not yet recorded it (the API was read
 * before, or the outcome is still being written) is "recording", never an error.
 */
export function reconcile({ delivery, observed, receipts: arrivals, copies = 1, asOf, now }: TReconcileInput): TReconciliation {
  if (!delivery) return 'not-sent';
  // Decided by the service's own arrivals: a suspicious copy is listed on its own, never the state.
  const suspicious = suspiciousArrivals(arrivals, delivery.attemptCount, copies);
  const receipts = suspicious ? arrivals.filter((_, i) => !suspicious[i]) : arrivals;
  const codes = delivery.responseStatusCodes ?? (delivery.lastResponseStatusCode != null ? [delivery.lastResponseStatusCode] : []);
  const noResponseEver = codes.length > 0 && codes.every((c) => c === 0);
  if (receipts.length === 0) {
    if (delivery.attemptCount === 0) return delivery.status === 'failed' ? 'not-sent' : 'not-sent-yet';
    if (noResponseEver) return 'network-error';
    return observed ? 'sent-not-received' : 'not-observed';
  }
  const latest = receipts[receipts.length - 1];
  // A receiver without a secret checked nothing: not a failed check, but never green either.
  const unchecked = latest.verdict === 'no secret configured';
  if (latest.verdict !== 'valid' && !unchecked) return 'received-bad-signature';
  const expected = delivery.attemptCount * copies;
  // Arrivals the API's answer cannot have counted yet: stored after it was read.
  const confirmed = asOf ? receipts.filter((r) => !(at(r.receivedAt) > asOf.getTime())) : receipts;
  const unrecorded = delivery.status !== 'success' && receipts.length > expected;
  const recent = !now || !(now.getTime() - at(latest.receivedAt) > RECORDING_WINDOW_MS);
  if (isAcknowledged(latest) && unrecorded && recent && delivery.status !== 'sending') return 'recording';
  if (confirmed.length > expected && delivery.status !== 'sending') return 'duplicate';
  if (receipts.some((r) => r.duplicate)) return 'duplicate';
  if (!is2xx(latest.responseStatus)) return 'received-answered-error';
  // The receiver said 2xx; the sender may still have given up (an answer after its timeout).
  if (delivery.status === 'failed' || (delivery.status === 'pending' && expected >= receipts.length)) return 'received-answered-error';
  if (unchecked) return 'received-bad-signature';
  return 'delivered-and-received';
}
