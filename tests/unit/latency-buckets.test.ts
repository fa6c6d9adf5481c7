import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bucketValue, emptyCounts, latencyBucket, parseCounts, percentileOf } from '../../lib/service/stats/latency-buckets';

// Response times in 25 % buckets: a percentile read back is within 12 % of the exact one.

test('buckets: 0 under 1 ms, then 25 % wide, capped', () => {
  assert.deepEqual([0, 0.5, 1, 1.24, 1.26, 100, 200, 15000].map(latencyBucket), [0, 0, 1, 1, 2, 21, 24, 44]);
  assert.equal(latencyBucket(1e12), 64);
  assert.equal(bucketValue(0), 0);
});

test('a percentile from the buckets is within 12 % of the exact nearest-rank value (any sample)', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: 1, maxLength: 300 }), fc.constantFrom(0.5, 0.95, 0.99), (sample, p) => {
      const counts = emptyCounts();
      for (const ms of sample) counts[latencyBucket(ms)]++;
      const exact = [...sample].sort((a, b) => a - b)[Math.max(1, Math.ceil(p * sample.length)) - 1];
      const got = percentileOf(counts, p)!;
      return Math.abs(got - exact) / exact <= 0.12;
    }),
  );
});

test('no attempts, no percentile', () => {
  assert.equal(percentileOf(emptyCounts(), 0.5), null);
});

test('a histogram as PostgreSQL prints it reads back as its counts', () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 2_000_000_000 }), { minLength: 1, maxLength: 65 }), (counts) => {
      assert.deepEqual(parseCounts(`{${counts.join(',')}}`), counts);
    }),
  );
});
