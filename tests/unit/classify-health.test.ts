import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyHealth, compareHealth, effectiveSuccessRate, HEALTH_THRESHOLDS, needsAttention } from '../../lib/console/health/classify-health';
import type { TReceiverSide, TWebhookStats } from '../../lib/console/health/health-types';

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
    lastFailureAt: null,
    recovery: null,
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
  assert.deepEqual(classifyHealth(stats({ attempts: 0, successes: 0, successRate: null }, null, null), false), {
    level: 'healthy',
    reasons: ['no attempts in this window'],
  });
});

test('failing: a streak at the threshold, or a success rate under it', () => {
  const t = HEALTH_THRESHOLDS;
  assert.equal(classifyHealth(stats({ failureStreak: t.failingStreak - 1, successRate: 0.97 }), false).level, 'degraded');
  assert.deepEqual(classifyHealth(stats({ failureStreak: t.failingStreak, successRate: 0.97 }), false), {
    level: 'failing',
    reasons: ['3 failed attempts in a row'],
  });
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

test('troubled first: failing, disabled, degraded, recovering, unknown, healthy; then the longer streak, the lower rate', () => {
  const row = (name: string, s: TWebhookStats | null, disabled = false) => ({ name, stats: s, health: classifyHealth(s, disabled) });
  const rows = [
    row('healthy', stats()),
    row('unknown', null),
    row('degraded', stats({ successRate: 0.98 })),
    row('disabled', stats(), true),
    row('failing-3', stats({ failureStreak: 3 })),
    row('failing-9', stats({ failureStreak: 9 })),
    row(
      'recovering',
      stats({ successRate: 0.35, successes: 35, lastFailureAt: '2026-11-23T11:03:00.000Z', recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 20 } }),
    ),
  ];
  assert.deepEqual(
    rows.sort(compareHealth).map((r) => r.name),
    ['failing-9', 'failing-3', 'disabled', 'degraded', 'recovering', 'unknown', 'healthy'],
  );
});

const receiver = (over: Partial<TReceiverSide> = {}): TReceiverSide => ({
  receiver: { id: 'r1', name: 'R2 holds another secret', slug: 'r2' },
  failures: 0,
  unverifiedAccepted: 0,
  lastFailureAt: null,
  ...over,
});

test('receiver side: every arrival failed the signature check is failing, not "healthy 100 %"', () => {
  const s = stats({ attempts: 5, successes: 5, successRate: 1, lastSuccessAt: '2026-11-23T11:59:00.000Z' });
  assert.equal(classifyHealth(s, false).level, 'healthy', 'the service alone says all good');
  const r = receiver({ failures: 5, unverifiedAccepted: 5, lastFailureAt: '2026-11-23T11:59:00.100Z' });
  assert.equal(effectiveSuccessRate(s, r), 0);
  assert.deepEqual(classifyHealth(s, false, r), {
    level: 'failing',
    reasons: ['success rate 0% counting 5 arrivals not verified at receiver “R2 holds another secret”'],
  });
});

test('receiver side: one failed arrival among many is degraded (the problems view lists it); none changes nothing', () => {
  const s = stats({ lastSuccessAt: '2026-11-23T11:59:00.000Z' });
  const errorAnswer = receiver({ failures: 1, unverifiedAccepted: 0, lastFailureAt: '2026-11-23T11:59:00.100Z' });
  assert.deepEqual(classifyHealth(s, false, errorAnswer), {
    level: 'degraded',
    reasons: ['1 arrival at receiver “R2 holds another secret” failed the signature check or got an error answer'],
  });
  const badSignature = receiver({ failures: 1, unverifiedAccepted: 1, lastFailureAt: '2026-11-23T11:59:00.100Z' });
  assert.deepEqual(classifyHealth(s, false, badSignature), {
    level: 'degraded',
    reasons: ['1 arrival at receiver “R2 holds another secret” failed the signature check or got an error answer'],
  });
  const two = receiver({ failures: 2, unverifiedAccepted: 2, lastFailureAt: '2026-11-23T11:59:00.100Z' });
  assert.deepEqual(classifyHealth(s, false, two), {
    level: 'degraded',
    reasons: ['success rate 98% counting 2 arrivals not verified at receiver “R2 holds another secret”'],
  });
  assert.equal(classifyHealth(s, false, receiver()).level, 'healthy');
  assert.equal(classifyHealth(s, false, null).level, 'healthy');
  // More unverified arrivals than attempts (requests from elsewhere): never below 0.
  assert.equal(effectiveSuccessRate(stats({ attempts: 2, successes: 2 }), receiver({ failures: 9, unverifiedAccepted: 9 })), 0);
});

test('recovering: a webhook fixed at 11:04 whose attempts all succeeded since is not "failing · 35 %"', () => {
  const fixed = { successRate: 0.35, successes: 35, lastFailureAt: '2026-11-23T11:03:30.000Z', lastSuccessAt: '2026-11-23T11:59:00.000Z' };
  const h = classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 40 } }), false);
  assert.equal(h.level, 'recovering');
  assert.equal(h.since, '2026-11-23T11:04:00.000Z');
  assert.deepEqual(h.reasons, ['recovering since 11:04: the last 40 attempts succeeded', 'success rate 35%']);
  assert.equal(
    classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 100 } }), false).reasons[0],
    'recovering since 11:04: the last 100+ attempts succeeded',
  );
  // On another day than the window's end, the day is said too.
  assert.match(
    classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-22T18:04:00.000Z', attempts: 40 } }), false).reasons[0],
    /^recovering since Nov 22 18:04:/,
  );
});

test('recovering takes enough successes in a row, and nothing wrong now', () => {
  const fixed = { successRate: 0.35, successes: 35, lastFailureAt: '2026-11-23T11:03:30.000Z' };
  const t = HEALTH_THRESHOLDS.recoveringAttempts;
  assert.equal(
    classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: t - 1 } }), false).level,
    'failing',
    'one or two successes are not a recovery yet',
  );
  assert.equal(classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: t } }), false).level, 'recovering');
  assert.equal(
    classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: t } }, 900), false).level,
    'failing',
    'a message still waits 15 min',
  );
  assert.equal(classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: t } }, null, 6000), false).level, 'failing', 'slow');
  const after = receiver({ failures: 1, unverifiedAccepted: 1, lastFailureAt: '2026-11-23T11:30:00.000Z' });
  assert.equal(
    classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 40 } }), false, after).level,
    'failing',
    'an arrival failed at the receiver since',
  );
  const before = receiver({ failures: 1, unverifiedAccepted: 0, lastFailureAt: '2026-11-23T11:03:30.100Z' });
  assert.equal(classifyHealth(stats({ ...fixed, recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 40 } }), false, before).level, 'recovering');
  // A recovery with nothing wrong in the window is simply healthy.
  assert.equal(
    classifyHealth(stats({ lastFailureAt: '2026-11-23T11:03:30.000Z', recovery: { since: '2026-11-23T11:04:00.000Z', attempts: 40 } }), false).level,
    'healthy',
  );
});

test('recovering when only the receiver saw failures: the service’s newest success came after the last failed arrival', () => {
  const s = stats({ attempts: 6, successes: 6, successRate: 1, lastSuccessAt: '2026-11-23T11:30:00.000Z' });
  const fixedSecret = receiver({ failures: 5, unverifiedAccepted: 5, lastFailureAt: '2026-11-23T11:20:00.000Z' });
  const h = classifyHealth(s, false, fixedSecret);
  assert.equal(h.level, 'recovering');
  assert.equal(h.reasons[0], 'recovering since 11:20: the newest attempt succeeded and verified');
  assert.equal(
    classifyHealth({ ...s, lastSuccessAt: '2026-11-23T11:20:00.000Z' }, false, fixedSecret).level,
    'failing',
    'the newest arrival is the failed one',
  );
});

test('needs attention: failing, degraded and disabled; not recovering, unknown or healthy', () => {
  assert.deepEqual((['failing', 'disabled', 'degraded', 'recovering', 'unknown', 'healthy'] as const).filter(needsAttention), [
    'failing',
    'disabled',
    'degraded',
  ]);
});
