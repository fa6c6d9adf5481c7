import type { THealth, THealthLevel, TReceiverSide, TWebhookStats } from './health-types';
import { formatUtcClock, plural, withReadableTimes } from '@/lib/console/format';

// One webhook's health from both sides of the wire: its stats at the service (attempts over the
// window, as of now) and what this console's receiver saw of it (arrivals that failed the signature
// check or were answered with an error). The thresholds are stated on the page (HealthThresholds).

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
  /** recovering (instead of failing or degraded on the window's figures): at least this many attempts in a row succeeded since the newest failure. */
  recoveringAttempts: 3,
} as const;

const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;

/**
 * The window's success rate counting what the receiver saw: an arrival answered 2xx whose signature
 * did not verify is a success for the service and a failure here. (Error answers are failures for
 * both already.) Without attempts, or without such arrivals, the service's rate.
 */
export function effectiveSuccessRate(stats: TWebhookStats, receiver: TReceiverSide | null | undefined): number | null {
  if (!receiver?.unverifiedAccepted || stats.attempts === 0) return stats.successRate;
  return Math.round((Math.max(0, stats.successes - receiver.unverifiedAccepted) / stats.attempts) * 10_000) / 10_000;
}

/**
 * Recovering since when, if the newest attempts succeeded: at least `recoveringAttempts` in a row
 * at the service since its newest failure, none of them failing at the receiver; or, when only the
 * receiver saw failures, the service's newest attempt succeeded after the receiver's last failed
 * arrival (that arrival and any later one verified). null otherwise.
 */
export function recoveringSince(stats: TWebhookStats, receiver: TReceiverSide | null | undefined): string | null {
  if (stats.failureStreak > 0) return null;
  const receiverFailedAt = receiver?.failures ? receiver.lastFailureAt : null;
  const r = stats.recovery;
  if (r && r.attempts >= HEALTH_THRESHOLDS.recoveringAttempts) {
    return receiverFailedAt && Date.parse(receiverFailedAt) >= Date.parse(r.since) ? null : r.since;
  }
  if (r || stats.lastFailureAt || !receiverFailedAt || !stats.lastSuccessAt) return null;
  return Date.parse(stats.lastSuccessAt) > Date.parse(receiverFailedAt) ? receiverFailedAt : null;
}

export function classifyHealth(stats: TWebhookStats | null, disabled: boolean, receiver?: TReceiverSide | null): THealth {
  if (disabled || stats?.disabled) return { level: 'disabled', reasons: [stats?.disabledReason ? withReadableTimes(stats.disabledReason) : 'disabled'] };
  if (!stats) return { level: 'unknown', reasons: ['no stats from the service'] };
  const t = HEALTH_THRESHOLDS;
  const rate = effectiveSuccessRate(stats, receiver);
  const rateReason = (r: number) =>
    `success rate ${pct(r)}${receiver?.unverifiedAccepted ? ` counting ${plural(receiver.unverifiedAccepted, 'arrival')} not verified at receiver “${receiver.receiver.name}”` : ''}`;
  const receiverReason = receiver?.failures
    ? `${plural(receiver.failures, 'arrival')} at receiver “${receiver.receiver.name}” failed the signature check or got an error answer`
    : null;

  // Reasons from the window's figures (a recovery outgrows them) and reasons about now (it does not).
  const failing: string[] = [];
  const failingNow: string[] = [];
  if (stats.failureStreak >= t.failingStreak) failingNow.push(`${stats.failureStreak} failed attempts in a row`);
  if (rate !== null && rate < t.failingSuccessRate) failing.push(rateReason(rate));
  const degraded: string[] = [];
  const degradedNow: string[] = [];
  if (rate !== null && rate >= t.failingSuccessRate && rate < t.degradedSuccessRate) degraded.push(rateReason(rate));
  if (stats.failureStreak > 0 && stats.failureStreak < t.failingStreak)
    degradedNow.push(`the last ${stats.failureStreak === 1 ? 'attempt' : `${stats.failureStreak} attempts`} failed`);
  const age = stats.backlog.oldestPendingAgeSeconds;
  if (age !== null && age > t.backlogAgeSeconds) degradedNow.push(`a message has waited ${Math.round(age / 60)} min`);
  const p95 = stats.responseTimeMs.p95;
  if (p95 !== null && p95 >= t.slowP95Ms) degradedNow.push(`p95 ${(p95 / 1000).toFixed(1)} s`);
  // Any failed arrival in the window needs a look (the problems view lists it), whatever the rate.
  if (receiverReason && !failing.length && !degraded.length) degraded.push(receiverReason);

  const since = failingNow.length || degradedNow.length ? null : recoveringSince(stats, receiver);
  if (since && (failing.length || degraded.length)) {
    const n = stats.recovery && stats.failureStreak === 0 ? stats.recovery.attempts : null;
    const streak = n === null ? 'the newest attempt succeeded and verified' : `the last ${n >= 100 ? '100+' : n} attempts succeeded`;
    return { level: 'recovering', since, reasons: [`recovering since ${formatUtcClock(since, stats.until)}: ${streak}`, ...failing, ...degraded] };
  }
  if (failing.length || failingNow.length) return { level: 'failing', reasons: [...failingNow, ...failing] };
  if (degraded.length || degradedNow.length) return { level: 'degraded', reasons: [...degraded, ...degradedNow] };
  return { level: 'healthy', reasons: [stats.attempts === 0 ? 'no attempts in this window' : 'all good'] };
}

const RANK: Record<THealthLevel, number> = { failing: 0, disabled: 1, paused: 2, degraded: 3, recovering: 4, unknown: 5, healthy: 6 };

/** Troubled first: failing, disabled, paused, degraded, recovering, unknown, healthy; then the longer streak, the lower success rate. */
export function compareHealth(
  a: { health: THealth; stats: TWebhookStats | null; name: string; receiver?: TReceiverSide | null },
  b: { health: THealth; stats: TWebhookStats | null; name: string; receiver?: TReceiverSide | null },
): number {
  const rate = (x: typeof a) => (x.stats ? effectiveSuccessRate(x.stats, x.receiver) : null) ?? 1;
  return (
    RANK[a.health.level] - RANK[b.health.level] ||
    (b.stats?.failureStreak ?? 0) - (a.stats?.failureStreak ?? 0) ||
    rate(a) - rate(b) ||
    a.name.localeCompare(b.name)
  );
}

/** The levels that need someone to look (the home's "need attention"): failing, degraded, disabled, paused (someone is to resume it). */
export function needsAttention(level: THealthLevel): boolean {
  return level === 'failing' || level === 'degraded' || level === 'disabled' || level === 'paused';
}
