import type { THealth, THealthLevel, TWebhookStats } from './health-types';

// One webhook's health from its stats: the thresholds the health home states on the page.

export const HEALTH_THRESHOLDS = {
  /** failing: this many failed attempts in a row, with no success since … */
  failingStreak: 3,
  /** … or a success rate over the window below this. */
  failingSuccessRate: 0.8,
  /** degraded: a success rate over the window below this … */
  degradedSuccessRate: 0.99,
  /** … or a message waiting longer than this (seconds) … */
  backlogAgeSeconds: 300,
  /** … or a p95 response time at or over this (ms: a third of the 15 s timeout). */
  slowP95Ms: 5000,
} as const;

const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;

export function classifyHealth(stats: TWebhookStats | null, disabled: boolean): THealth {
  if (disabled || stats?.disabled) return { level: 'disabled', reasons: [stats?.disabledReason ?? 'disabled'] };
  if (!stats) return { level: 'unknown', reasons: ['no stats from the service'] };
  const t = HEALTH_THRESHOLDS;
  const failing: string[] = [];
  if (stats.failureStreak >= t.failingStreak) failing.push(`${stats.failureStreak} failed attempts in a row`);
  if (stats.successRate !== null && stats.successRate < t.failingSuccessRate) failing.push(`success rate ${pct(stats.successRate)}`);
  if (failing.length) return { level: 'failing', reasons: failing };
  const degraded: string[] = [];
  if (stats.successRate !== null && stats.successRate < t.degradedSuccessRate) degraded.push(`success rate ${pct(stats.successRate)}`);
  if (stats.failureStreak > 0) degraded.push(`the last ${stats.failureStreak === 1 ? 'attempt' : `${stats.failureStreak} attempts`} failed`);
  const age = stats.backlog.oldestPendingAgeSeconds;
  if (age !== null && age > t.backlogAgeSeconds) degraded.push(`a message has waited ${Math.round(age / 60)} min`);
  const p95 = stats.responseTimeMs.p95;
  if (p95 !== null && p95 >= t.slowP95Ms) degraded.push(`p95 ${(p95 / 1000).toFixed(1)} s`);
  if (degraded.length) return { level: 'degraded', reasons: degraded };
  return { level: 'healthy', reasons: [stats.attempts === 0 ? 'no attempts in this window' : 'all good'] };
}

const RANK: Record<THealthLevel, number> = { failing: 0, disabled: 1, degraded: 2, unknown: 3, healthy: 4 };

/** Troubled first: failing, disabled, degraded, unknown, healthy; then the longer streak, the lower success rate. */
export function compareHealth(
  a: { health: THealth; stats: TWebhookStats | null; name: string },
  b: { health: THealth; stats: TWebhookStats | null; name: string },
): number {
  return (
    RANK[a.health.level] - RANK[b.health.level] ||
    (b.stats?.failureStreak ?? 0) - (a.stats?.failureStreak ?? 0) ||
    (a.stats?.successRate ?? 1) - (b.stats?.successRate ?? 1) ||
    a.name.localeCompare(b.name)
  );
}
