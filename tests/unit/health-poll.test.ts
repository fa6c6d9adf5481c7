import assert from 'node:assert/strict';
import { test } from 'node:test';
import { healthPollMs } from '../../lib/console/health/health-types';

// The health home polls every 5 s, and less often when its read is slow: a large account's home
// must not be asked again before the last answer has had time to matter.

test('5 s for fast reads, four times a slow one, never over a minute', () => {
  assert.deepEqual([undefined, 0, 300, 1250, 5000, 14_630, 120_000].map(healthPollMs), [5000, 5000, 5000, 5000, 20_000, 58_520, 60_000]);
});
