import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRetryAfter, RETRY_AFTER_MAX_SECONDS } from '@/lib/http/retry-after';

// Retry-After as the worker and the console's API client read it, without a clock.

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');

  test('delta-seconds', () => {
    assert.equal(parseRetryAfter('120', { now }), 120);
    assert.equal(parseRetryAfter(' 0 ', { now }), 0);
  });

  test('an HTTP date, as seconds from now; a past date is 0', () => {
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 12:01:30 GMT', { now }), 90);
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', { now }), 0);
    assert.equal(parseRetryAfter('Monday, 23-Nov-26 12:00:10 GMT', { now }), 10, 'RFC 850');
    assert.equal(parseRetryAfter('Mon Nov 23 12:00:20 2026', { now }), 20, 'asctime, GMT by definition');
  });

  test('capped: a huge delta or a far date reads as the cap', () => {
    assert.equal(parseRetryAfter('99999999999999999999999', { now }), RETRY_AFTER_MAX_SECONDS);
    assert.equal(parseRetryAfter('Fri, 23 Nov 2029 12:00:00 GMT', { now }), RETRY_AFTER_MAX_SECONDS);
    assert.equal(parseRetryAfter('120', { now, maxSeconds: 10 }), 10, 'a caller’s own cap');
  });

  test('absent or unreadable: null', () => {
    for (const v of [null, undefined, '', 'soon', '-5', '1.5', '12 seconds', '2026-11-23T12:01:00Z', 'Mon, 23 Nov 2026 12:01:30 +0100', '1e3']) {
      assert.equal(parseRetryAfter(v, { now }), null, String(v));
    }
  });
});
