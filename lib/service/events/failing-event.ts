// EXT `webhook.failing`'s `data` (sent by lib/service/delivery/failing-warnings.ts): a webhook's
// failing stretch has passed 50, 75 or 90 % of DELIVERY_DISABLE_AFTER_MS.

export type TWebhookFailingData = {
  webhookId: string;
  url: string;
  /** the stretch's start: its first failure with no success since */
  failingSince: string;
  /** failingSince + DELIVERY_DISABLE_AFTER_MS: the first failure from then disables the webhook */
  disablesAt: string;
  /** the share of the threshold the stretch has passed: 50, 75 or 90 */
  thresholdPercent: number;
  /** its newest failure in one line (status and the start of the answer, or the network error); null when none is kept */
  lastError: string | null;
  /** its messages waiting for an attempt (pending or being sent) */
  waitingMessages: number;
};

/** The example of POST /v1/webhooks/{id}/test (fixed values, the real event's shape). */
export const EXAMPLE_FAILING: TWebhookFailingData = {
  webhookId: 'ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  url: 'https://example.org/webhooks/giving-connect',
  failingSince: '2026-11-22T10:15:35.000Z',
  disablesAt: '2026-11-27T10:15:35.000Z',
  thresholdPercent: 75,
  lastError: '503: Service Unavailable',
  waitingMessages: 41,
};
