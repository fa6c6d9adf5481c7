import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verdictRuns } from '../../lib/console/timeline/verdict-runs';

// The timeline's "Received" cell: every verdict of a message's arrivals, in order, not the newest one ×n.

const r = (id: number, verdict: string, verdictReason = '') => ({ id, verdict, verdictReason });

test('one arrival: one run', () => {
  assert.deepEqual(verdictRuns([r(1, 'valid')]), [{ verdict: 'valid', reason: '', count: 1, firstId: 1 }]);
  assert.deepEqual(verdictRuns([]), []);
});

test('a valid copy then one that failed verification: both verdicts, in arrival order', () => {
  const runs = verdictRuns([r(1, 'valid'), r(2, 'invalid signature', 'No webhook-signature matches the configured secret.')]);
  assert.deepEqual(
    runs.map((x) => [x.verdict, x.count]),
    [
      ['valid', 1],
      ['invalid signature', 1],
    ],
  );
  assert.equal(runs[1].reason, 'No webhook-signature matches the configured secret.');
});

test('runs of the same verdict are counted; a verdict that comes back starts a new run', () => {
  const runs = verdictRuns([r(1, 'invalid signature'), r(2, 'invalid signature'), r(3, 'valid'), r(4, 'valid'), r(5, 'valid'), r(6, 'invalid signature')]);
  assert.deepEqual(
    runs.map((x) => `${x.verdict}×${x.count}@${x.firstId}`),
    ['invalid signature×2@1', 'valid×3@3', 'invalid signature×1@6'],
  );
});
