// A payload search's answer (GET /api/search?q=path=value or "text"): plain JSON for the case page.

export type TPayloadHitReceipt = {
  id: number;
  receiverId: string;
  receiverName: string;
  receivedAt: string;
  verdict: string;
  responseStatus: number;
};

/** One message (or, without a webhook-id, one request) whose receipt body or message payload matched. */
export type TPayloadHit = {
  messageId: string | null;
  eventType: string | null;
  grantId: string | null;
  /** Its case: the grant's, else the message's; a request no message names links its receipt. */
  href: string;
  /** The newest time it was seen: the message's timestamp or a receipt's arrival. */
  at: string;
  matchedIn: ('receipt' | 'message')[];
  /** The account's webhooks it concerns: those the service queued it for, or whose URL reaches the receiver. */
  webhooks: { id: string; url: string }[];
  receipts: TPayloadHitReceipt[];
  /** The matched part of the body or payload (masked for viewers like every body). */
  snippet: string;
};

export type TPayloadSearch = {
  query: string;
  kind: 'payload-field' | 'payload-text';
  since: string;
  until: string;
  hits: TPayloadHit[];
  /** More matched than are listed: narrow the window or the query. */
  more: boolean;
  /**
   * The search ran out of its time budget (SEARCH_BUDGET_MS) before `since`: the hits are every
   * match from `searchedUntil` to `until`; the same search with `until` = searchedUntil goes on.
   */
  partial: boolean;
  searchedUntil: string | null;
  notes: string[];
  fetchedAt: string;
};
