import type { TWebhookView } from '../webhooks/webhook-view';
import type { TMessageCurls } from '../export/curl-command';
import type { TBodyGone } from '../retention/body-gone';
import type { TReconciliation } from './reconcile';

// The shapes the timeline, message, case and problems views pass from server to client (plain
// JSON: timestamps are ISO strings). No server-only imports: client components import these.

export type TTimelineAttempt = {
  id: string;
  timestamp: string;
  status: string;
  responseStatusCode: number;
  responseDurationMs: number;
  triggerType: string;
  url: string;
  /** The response body, or the error when no response came; only where the attempt was read one by one. */
  response?: string;
  /** Set when retention (or a donor erasure) emptied the response body: "response body purged on DATE (retention 90d)". */
  responseGone?: TBodyGone;
};

export type TTimelineReceipt = {
  id: number;
  receiverId: string;
  receivedAt: string;
  verdict: string;
  verdictReason: string;
  duplicate: boolean;
  responseStatus: number;
  bodySize: number;
  /** The address it came to (`host[:port]`); '' when stored before hosts were kept. */
  host: string;
  /** Set when retention purged the body (or a donor erasure did): "body purged on DATE (retention 30d)". */
  bodyGone?: TBodyGone;
  /** A copy whose signature did not verify beside the service's verified delivery: not the service's (reconcile.ts). */
  suspicious?: true;
};

/** A webhook as the views show it (lib/console/webhooks/webhook-view.ts). */
export type TTimelineWebhook = TWebhookView;

/** The console receiver a webhook's requests go to, when its URL is one of this console's. */
export type TReceiverRef = { id: string; name: string; slug: string };

/** A message as one webhook sees it, joined with what arrived at that webhook's receiver. */
export type TTimelineMessage = {
  id: string;
  eventType: string;
  timestamp: string;
  status: string;
  nextAttempt: string | null;
  /** EXT: why the service stopped its retries early (a donor erasure, retention), and when; null otherwise. */
  retriesStopped: { reason: string; at: string } | null;
  attemptCount: number;
  /** The newest attempt (no response body), or null before the first. */
  lastAttempt: TTimelineAttempt | null;
  /** The receipts of this message at this webhook's receiver, oldest first (never another receiver's). */
  receipts: TTimelineReceipt[];
  reconciliation: TReconciliation;
  /** One plain sentence: what happened and why. */
  explanation: string;
  /** Suspicious arrivals among `receipts` (set when there are any): a Problems row of their own kind. */
  suspiciousArrivals?: number;
};

export type TTimeline = {
  /** The webhook's settings, re-read on every poll (null when the service offers no Get webhook). */
  webhook: TTimelineWebhook | null;
  /** The receiver of the webhook's current URL, or null: "receiver not observed by this console". */
  receiver: TReceiverRef | null;
  messages: TTimelineMessage[];
  /** Other webhooks of the account with exactly this URL: their arrivals show here too. */
  sharedUrlWith: { id: string; description: string }[];
  nextPageToken: string | null;
  fetchedAt: string;
};

export type TTimelineFilters = {
  status?: string;
  eventType?: string;
  /** RFC 3339: only messages created after / before. */
  after?: string;
  before?: string;
  pageToken?: string;
  pageLimit?: number;
};

/** Attempts and receipts of one message at one webhook, in the order they happened. */
export type TDeliveryEvent = { kind: 'attempt'; at: string; attempt: TTimelineAttempt } | { kind: 'receipt'; at: string; receipt: TTimelineReceipt };

/** One message at one webhook, in full: every attempt with its response body, every receipt. */
export type TMessageDetail = {
  webhookId: string;
  /** The webhook is disabled: its waiting messages will not be attempted. */
  webhookDisabled: boolean;
  message: TTimelineMessage & { payload: unknown };
  receiver: TReceiverRef | null;
  /** The outage's story (recover/delivery-story.ts): made while the webhook was disabled, replayed by whom and when. */
  story: string | null;
  attempts: TTimelineAttempt[];
  events: TDeliveryEvent[];
  fetchedAt: string;
  /** Set by GET /api/webhooks/{id}/messages/{msgId} for operators and admins (null for a viewer): "Copy as cURL". */
  curls?: TMessageCurls | null;
};
