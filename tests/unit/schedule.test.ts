import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RETRY_JITTER, nextRetryDelayMs } from '@/lib/service/delivery/schedule';

// The retry maths with a fixed `random`, without a clock or a database (Retry-After: retry-after.test.ts).

const SCHEDULE = [5, 300, 1800];
const fixed = (r: number) => () => r;

describe('nextRetryDelayMs', () => {
  test('the n-th failed attempt waits schedule[n-1] seconds, ±20 % jitter from `random`', () => {
    assert.equal(nextRetryDelayMs(1, SCHEDULE, { statusCode: 500, retryAfterSeconds: null, random: fixed(0.5) }), 5000);
    assert.equal(nextRetryDelayMs(2, SCHEDULE, { statusCode: 500, retryAfterSeconds: null, random: fixed(0) }), 300_000 * (1 - RETRY_JITTER));
    assert.equal(Math.round(nextRetryDelayMs(3, SCHEDULE, { statusCode: 0, retryAfterSeconds: null, random: fixed(1) })!), 1_800_000 * (1 + RETRY_JITTER));
  });

  test('after the last scheduled attempt there is no next one', () => {
    assert.equal(nextRetryDelayMs(4, SCHEDULE, { statusCode: 500, retryAfterSeconds: null, random: fixed(0.5) }), null);
    assert.equal(nextRetryDelayMs(1, [], { statusCode: 500, retryAfterSeconds: null }), null);
  });

  test('Retry-After with 429 or 503 is honoured within [delay, 2 × delay]', () => {
    const base = { random: fixed(0.5) };
    assert.equal(nextRetryDelayMs(2, SCHEDULE, { ...base, statusCode: 429, retryAfterSeconds: 400 }), 400_000, 'inside the bounds: as asked');
    assert.equal(nextRetryDelayMs(2, SCHEDULE, { ...base, statusCode: 503, retryAfterSeconds: 10 }), 300_000, 'sooner than the schedule: the schedule');
    assert.equal(nextRetryDelayMs(2, SCHEDULE, { ...base, statusCode: 503, retryAfterSeconds: 86_400 }), 600_000, 'far later: capped at twice the delay');
  });

  test('Retry-After with any other status is ignored', () => {
    for (const statusCode of [200, 302, 400, 500, 502, 0]) {
      assert.equal(nextRetryDelayMs(2, SCHEDULE, { statusCode, retryAfterSeconds: 400, random: fixed(0.5) }), 300_000, String(statusCode));
    }
  });
});
