import type { TBodyGone } from '../retention/body-gone';
import type { TReconciliation } from '../timeline/reconcile';
import type { TReceiverRef, TTimelineAttempt, TTimelineReceipt, TTimelineWebhook } from '../timeline/timeline-types';

// A case: everything this console can tell about one search (a tracking id, grant id, message id,
// event id, donor e-mail or full name), from both sides of the wire. Plain JSON for pages and /api/search.

export const QUERY_KINDS = ['message-id', 'event-id', 'grant-id', 'tracking-id', 'email', 'donor-name', 'webhook-id', 'unknown'] as const;
export type TQueryKind = (typeof QUERY_KINDS)[number];

export type TCaseGrant = {
  id: string;
  trackingId: string;
  amount: number;
  feeAmount: number;
  status: string;
  /** The status as the service reports it, explained beside the grant's events (grant-status.ts). */
  statusNote: string;
  fundId: string;
  fundName: string;
  firstName: string;
  lastName: string;
  email: string;
  connectId: string;
  createdAt: string;
  /** When a donor erasure replaced the donor's fields (firstName, lastName, email then read "erased"); null otherwise. */
  erasedAt: string | null;
  /** 'api': read now from the service; 'payload': as the message carried it (the service would not say more). */
  source: 'api' | 'payload';
};

/** One message at one webhook of the account. */
export type TCaseDelivery = {
  webhook: TTimelineWebhook;
  receiver: TReceiverRef | null;
  /** null: the service did not queue the message for this webhook. */
  status: string | null;
  attemptCount: number;
  nextAttempt: string | null;
  /** Oldest first; the newest carries its response body or network error. */
  attempts: TTimelineAttempt[];
  /** EXT: why the service stopped its retries early (a donor erasure, retention), and when; null otherwise. */
  retriesStopped: { reason: string; at: string } | null;
  receipts: TTimelineReceipt[];
  reconciliation: TReconciliation;
  explanation: string;
  /** The outage's story (delivery-story.ts): made while the webhook was disabled, replayed by whom and when; null when there is none. */
  story: string | null;
  /** Copies among `receipts` that did not verify beside the verified delivery (set when there are any). */
  suspiciousArrivals?: number;
};

/** A receipt of the message sent again by staff (lib/console/forward): the reply's summary; its page has the rest. */
export type TCaseForward = {
  id: number;
  receiptId: number;
  at: string;
  actor: string;
  url: string;
  mode: string;
  /** 0: no reply (see `error`). */
  status: number;
  elapsedMs: number;
  error: string | null;
};

export type TCaseMessage = {
  id: string;
  eventId: string | null;
  eventType: string;
  timestamp: string;
  grantId: string | null;
  test: boolean;
  deliveries: TCaseDelivery[];
  /** Set when the service purged the payload (retention) or a donor erasure replaced it: what to say where it was. */
  payloadGone: TBodyGone | null;
  /** Arrivals of this message at receivers none of the account's webhooks points to. */
  otherReceipts: TTimelineReceipt[];
  /** Its receipts' forwards, newest first. */
  forwards: TCaseForward[];
};

export type TCase = {
  query: string;
  kind: TQueryKind;
  /** Where a webhook id leads: its timeline. */
  redirect?: string;
  grants: TCaseGrant[];
  messages: TCaseMessage[];
  /** What could not be looked at, and why (an extension the service lacks, a cap reached). */
  notes: string[];
  fetchedAt: string;
};
