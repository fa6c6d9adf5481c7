import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RETRY_JITTER, nextRetryDelayMs, parseRetryAfter } from '@/lib/service/delivery/schedule';

// The retry maths with a fixed `random`, and Retry-After parsing, without a clock or a database.

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

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');

  test('delta-seconds', () => {
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
  });

  test('an HTTP date, as seconds from now; a past date is 0', () => {
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 12:01:30 GMT', now), 90);
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('Monday, 23-Nov-26 12:00:10 GMT', now), 10, 'RFC 850');
    assert.equal(parseRetryAfter('Mon Nov 23 12:00:20 2026', now), 20, 'asctime, GMT by definition');
  });

  test('absent or unreadable: null', () => {
    for (const v of [null, undefined, '', 'soon', '-5', '1.5', '12 seconds', '2026-11-23T12:01:00Z', 'Mon, 23 Nov 2026 12:01:30 +0100']) assert.equal(parseRetryAfter(v, now), null, String(v));
  });
});
