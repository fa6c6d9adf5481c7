import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, parseDuration } from '../../lib/duration';
import { parseEnv } from '../../lib/env';

test('durations: a whole number and d, h, m or s', () => {
  assert.equal(parseDuration('90d'), 90 * 86_400_000);
  assert.equal(parseDuration('12h'), 12 * 3_600_000);
  assert.equal(parseDuration('30m'), 30 * 60_000);
  assert.equal(parseDuration(' 45s '), 45_000);
  for (const bad of ['', '0d', '1.5d', '10', 'd', '5w', '-5s', '5 days', '1e3s']) assert.equal(parseDuration(bad), null, bad);
});

test('durations are written back in their largest exact unit', () => {
  assert.equal(formatDuration(parseDuration('30d')!), '30d');
  assert.equal(formatDuration(parseDuration('48h')!), '2d');
  assert.equal(formatDuration(parseDuration('90m')!), '90m');
  assert.equal(formatDuration(5000), '5s');
});

test('retention settings: defaults, values, and a bad one named', () => {
  const env = parseEnv({});
  assert.equal(env.RECEIPT_BODY_RETENTION, 30 * 86_400_000);
  assert.equal(env.RECEIPT_RETENTION, 365 * 86_400_000);
  assert.equal(env.MESSAGE_PAYLOAD_RETENTION, 90 * 86_400_000);
  assert.equal(env.MESSAGE_RETENTION, 365 * 86_400_000);
  assert.equal(env.RETENTION_HOLD_MAX, 90 * 86_400_000);
  assert.equal(parseEnv({ RECEIPT_BODY_RETENTION: '90m' }).RECEIPT_BODY_RETENTION, 90 * 60_000);
  assert.equal(parseEnv({ TEST_HARNESS: '1', RECEIPT_BODY_RETENTION: '5s' }).RECEIPT_BODY_RETENTION, 5000, 'seconds: the test harness only');
  assert.throws(() => parseEnv({ MESSAGE_RETENTION: '1 year' }), /MESSAGE_RETENTION must be a duration such as 90d, 12h, 30m or 45s \(got "1 year"\)/);
});
