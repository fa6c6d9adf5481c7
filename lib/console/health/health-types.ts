import type { TWebhookStats } from '@/lib/console/connect-api/types';
import type { TReceiverRef, TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import type { TOutageGap } from '@/lib/console/recover/gap-words';
import type { TDisableWarning } from './disable-warning';

// The shapes the health views pass from server to client (plain JSON; no server-only imports).

export type { TWebhookStats };

export const HEALTH_WINDOWS = ['1h', '24h', '7d'] as const;
export type THealthWindow = (typeof HEALTH_WINDOWS)[number];
export const DEFAULT_HEALTH_WINDOW: THealthWindow = '24h';
/** The windows' lengths, as the service's stats take them (the receiver side is counted over the same span). */
export const HEALTH_WINDOW_SECONDS: Record<THealthWindow, number> = { '1h': 3600, '24h': 86_400, '7d': 7 * 86_400 };

/** Troubled first: the order of the home's rows and of its summary. */
export const HEALTH_LEVELS = ['failing', 'disabled', 'paused', 'degraded', 'recovering', 'unknown', 'healthy'] as const;
/** `unknown`: the service gave no stats (it lacks the extension, or the call failed). */
export type THealthLevel = (typeof HEALTH_LEVELS)[number];

/** `since`: when recovering, since when the newest attempts have succeeded. */
export type THealth = { level: THealthLevel; reasons: string[]; since?: string };

/**
 * What this console's receiver saw of a webhook over the window, when its URL reaches one: the
 * arrivals whose signature did not verify or that were answered with a non-2xx. Counted per
 * receiver (webhooks sharing a receiver share its count).
 */
export type TReceiverSide = {
  receiver: TReceiverRef;
  failures: number;
  /** Of those, the ones answered 2xx (a bad signature): delivered for the service, failed here. */
  unverifiedAccepted: number;
  lastFailureAt: string | null;
};

/** One row of the health home: a webhook, its stats over the window (or why there are none) and its health. */
export type THealthRow = {
  webhook: TTimelineWebhook;
  stats: TWebhookStats | null;
  /** null: the webhook's URL is not one of this console's receivers (nothing seen here). */
  receiver: TReceiverSide | null;
  error: string | null;
  health: THealth;
  /** Failing and enabled: when the service will disable it, in words (null otherwise). */
  warning?: TDisableWarning | null;
  /** Capped (EXT `rateLimit`): "capped at 20/s — 1,240 waiting, drains in about 1 min"; said on a healthy row too. */
  capped?: string | null;
};

/** A recent outage's gap on the home, with the webhook's name and what its messages are called. */
export type THomeGap = TOutageGap & { name: string; noun: string };

export type THealthHome = {
  window: THealthWindow;
  rows: THealthRow[];
  /** false: the service does not offer stats (EXT); rows then carry no figures. */
  statsSupported: boolean;
  /** true: the webhooks came from the service's list (EXT); false: the ones this console tracks. */
  listed: boolean;
  fetchedAt: string;
  /** Webhooks disabled in the last day whose outage left messages to recover (or that are still disabled). */
  gaps?: THomeGap[];
  /** How long the read took: the page polls less often when it is slow (healthPollMs). */
  readMs: number;
};

/** The home's poll interval: 5 s, or four times as long as the last read took, at most a minute. */
export function healthPollMs(lastReadMs: number | undefined): number {
  return Math.min(60_000, Math.max(5000, Math.round((lastReadMs ?? 0) * 4)));
}

/** The window named in a query string; anything else is the default (pages are forgiving, routes are not). */
export function healthWindowOf(value: unknown): THealthWindow {
  return HEALTH_WINDOWS.includes(value as THealthWindow) ? (value as THealthWindow) : DEFAULT_HEALTH_WINDOW;
}
