import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyHealth, compareHealth, HEALTH_THRESHOLDS } from '../../lib/console/health/classify-health';
import type { TWebhookStats } from '../../lib/console/health/health-types';

// The health badge's thresholds, as the health home states them.

function stats(over: Partial<TWebhookStats> = {}, backlogAge: number | null = null, p95: number | null = 40): TWebhookStats {
  return {
    webhookId: 'ep_1',
    window: '24h',
    from: '2026-11-22T12:00:00.000Z',
    until: '2026-11-23T12:00:00.000Z',
    bucketSeconds: 3600,
    attempts: 100,
    successes: 100,
    failures: 0,
    successRate: 1,
    responseTimeMs: { p50: 20, p95, p99: p95 },
    backlog: { pending: backlogAge === null ? 0 : 1, sending: 0, oldestPendingAt: null, oldestPendingAgeSeconds: backlogAge, nextAttemptAt: null },
    lastSuccessAt: null,
    lastAttemptAt: null,
    failureStreak: 0,
    failingSince: null,
    disabled: false,
    disabledReason: null,
    disabledAt: null,
    buckets: [],
    ...over,
  };
}

test('healthy: all good, or nothing attempted', () => {
  assert.equal(classifyHealth(stats(), false).level, 'healthy');
  assert.deepEqual(classifyHealth(stats({ attempts: 0, successes: 0, successRate: null }, null, null), false), { level: 'healthy', reasons: ['no attempts in this window'] });
});

test('failing: a streak at the threshold, or a success rate under it', () => {
  const t = HEALTH_THRESHOLDS;
  assert.equal(classifyHealth(stats({ failureStreak: t.failingStreak - 1, successRate: 0.97 }), false).level, 'degraded');
  assert.deepEqual(classifyHealth(stats({ failureStreak: t.failingStreak, successRate: 0.97 }), false), { level: 'failing', reasons: ['3 failed attempts in a row'] });
  assert.deepEqual(classifyHealth(stats({ successRate: 0.795 }), false).reasons, ['success rate 79.5%']);
});

test('degraded: a lower success rate, a failed last attempt, an old backlog, a slow p95', () => {
  assert.equal(classifyHealth(stats({ successRate: 0.985 }), false).level, 'degraded');
  assert.deepEqual(classifyHealth(stats({ failureStreak: 1 }), false).reasons, ['the last attempt failed']);
  assert.equal(classifyHealth(stats({}, 300), false).level, 'healthy', 'five minutes is still fine');
  assert.deepEqual(classifyHealth(stats({}, 601), false).reasons, ['a message has waited 10 min']);
  assert.deepEqual(classifyHealth(stats({}, null, 5000), false).reasons, ['p95 5.0 s']);
});

test('disabled wins over everything; without stats the level is unknown', () => {
  assert.deepEqual(classifyHealth(stats({ disabled: true, disabledReason: 'the endpoint answered 410 Gone', failureStreak: 9 }), false), {
    level: 'disabled',
    reasons: ['the endpoint answered 410 Gone'],
  });
  assert.equal(classifyHealth(null, true).level, 'disabled');
  assert.equal(classifyHealth(null, false).level, 'unknown');
});

test('troubled first: failing, disabled, degraded, unknown, healthy; then the longer streak, the lower rate', () => {
  const row = (name: string, s: TWebhookStats | null, disabled = false) => ({ name, stats: s, health: classifyHealth(s, disabled) });
  const rows = [
    row('healthy', stats()),
    row('unknown', null),
    row('degraded', stats({ successRate: 0.98 })),
    row('disabled', stats(), true),
    row('failing-3', stats({ failureStreak: 3 })),
    row('failing-9', stats({ failureStreak: 9 })),
  ];
  assert.deepEqual(rows.sort(compareHealth).map((r) => r.name), ['failing-9', 'failing-3', 'disabled', 'degraded', 'unknown', 'healthy']);
});
