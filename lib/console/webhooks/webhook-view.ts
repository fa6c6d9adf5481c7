import type { TWebhook } from '../connect-api';

// A webhook as the console's views show it (timeline, problems, cases, health): what the API said
// of it, in one shape whichever way it was read. The timeline and the views across webhooks import
// it from here, one way.

export type TWebhookView = {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  disabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  /** EXT: its failing stretch, and when it will be disabled if nothing succeeds first (null: not failing, or not said). */
  failingSince?: string | null;
  disablesAt?: string | null;
  /** EXT pause: undefined when the service does not say (it has no pause); pausedAt null while running. */
  paused?: boolean;
  pausedAt?: string | null;
  /** Who paused it, from this console's audit log (paused-by.ts); null: not by this console; undefined: not looked up. */
  pausedBy?: string | null;
  /** EXT rate cap, deliveries per second; null: none (or not said). */
  rateLimit?: number | null;
  createdAt: string;
};

export function toWebhookView(w: TWebhook): TWebhookView {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    eventTypes: w.eventTypes,
    disabled: w.disabled,
    disabledReason: w.disabledReason ?? null,
    disabledAt: w.disabledAt ?? null,
    failingSince: w.failingSince ?? null,
    disablesAt: w.disablesAt ?? null,
    paused: w.paused,
    pausedAt: w.pausedAt ?? null,
    rateLimit: w.rateLimit ?? null,
    createdAt: w.createdAt,
  };
}
