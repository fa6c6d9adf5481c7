import { z } from 'zod';

/** The windows the stats cover, each cut into buckets for a chart (epoch-aligned, UTC). */
export const STATS_WINDOWS = {
  '1h': { seconds: 3600, bucketSeconds: 300 },
  '24h': { seconds: 86_400, bucketSeconds: 3600 },
  '7d': { seconds: 7 * 86_400, bucketSeconds: 6 * 3600 },
} as const;
export type TStatsWindow = keyof typeof STATS_WINDOWS;
const WINDOW_NAMES = Object.keys(STATS_WINDOWS) as [TStatsWindow, ...TStatsWindow[]];

export const ZStatsQuery = z.object({
  window: z.enum(WINDOW_NAMES, { message: `must be one of: ${WINDOW_NAMES.join(', ')}` }).default('24h'),
});

export type TPercentiles = { p50: number | null; p95: number | null; p99: number | null };

export type TStatsBucket = TPercentiles & {
  start: string;
  end: string;
  attempts: number;
  successes: number;
  failures: number;
};

/** EXT GET /v1/webhooks/{id}/stats (docs/api-extensions.md). */
export type TWebhookStatsJson = {
  webhookId: string;
  window: TStatsWindow;
  from: string;
  until: string;
  bucketSeconds: number;
  attempts: number;
  successes: number;
  failures: number;
  /** successes / attempts over the window, 0–1; null without attempts. */
  successRate: number | null;
  /** Response time of the window's attempts in ms (failures and timeouts included). */
  responseTimeMs: TPercentiles;
  backlog: {
    pending: number;
    sending: number;
    oldestPendingAt: string | null;
    oldestPendingAgeSeconds: number | null;
    nextAttemptAt: string | null;
  };
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  /** Attempts since the last success (all of them failed); 0 when the newest attempt succeeded. */
  failureStreak: number;
  /** The newest failed attempt in the window; null when none failed. */
  lastFailureAt: string | null;
  /** The window had a failure and every attempt since succeeded: when the first of them was made, and how many (counted up to 100). */
  recovery: { since: string; attempts: number } | null;
  failingSince: string | null;
  disabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  buckets: TStatsBucket[];
};
