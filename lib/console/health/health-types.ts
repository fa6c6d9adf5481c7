import type { TWebhookStats } from '@/lib/console/connect-api/schemas';
import type { TTimelineWebhook } from '@/lib/console/timeline-types';

// The shapes the health views pass from server to client (plain JSON; no server-only imports).

export type { TWebhookStats };

export const HEALTH_WINDOWS = ['1h', '24h', '7d'] as const;
export type THealthWindow = (typeof HEALTH_WINDOWS)[number];
export const DEFAULT_HEALTH_WINDOW: THealthWindow = '24h';

export const HEALTH_LEVELS = ['failing', 'disabled', 'degraded', 'healthy'] as const;
/** `unknown`: the service gave no stats (it lacks the extension, or the call failed). */
export type THealthLevel = (typeof HEALTH_LEVELS)[number] | 'unknown';

export type THealth = { level: THealthLevel; reasons: string[] };

/** One row of the health home: a webhook, its stats over the window (or why there are none) and its health. */
export type THealthRow = {
  webhook: TTimelineWebhook;
  stats: TWebhookStats | null;
  error: string | null;
  health: THealth;
};

export type THealthHome = {
  window: THealthWindow;
  rows: THealthRow[];
  /** false: the service does not offer stats (EXT); rows then carry no figures. */
  statsSupported: boolean;
  /** true: the webhooks came from the service's list (EXT); false: the ones this console tracks. */
  listed: boolean;
  fetchedAt: string;
};

/** The window named in a query string; anything else is the default (pages are forgiving, routes are not). */
export function healthWindowOf(value: unknown): THealthWindow {
  return HEALTH_WINDOWS.includes(value as THealthWindow) ? (value as THealthWindow) : DEFAULT_HEALTH_WINDOW;
}
