import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextBatch, purgeIdleMs } from '../../lib/db/purge-loop';
import { erasedNote, payloadGone, purgedNote, receiptBodyGone, responseGone, retriesStoppedNote } from '../../lib/console/retention/body-gone';

test('what a view says where a body was', () => {
  assert.equal(purgedNote('2026-11-24T23:59:59.000Z', 30 * 86_400_000), 'body purged on 2026-11-24 (retention 30d)');
  assert.equal(erasedNote(new Date('2026-11-25T00:00:00.000Z')), 'body erased on 2026-11-25 (donor erasure)');
  const at = new Date('2026-11-20T10:00:00.000Z');
  assert.equal(receiptBodyGone({ bodyPurgedAt: null, erasedAt: null, bodySha256: null }, 30 * 86_400_000), null);
  assert.equal(receiptBodyGone({ bodyPurgedAt: at, erasedAt: null, bodySha256: 'ab' }, 30 * 86_400_000)?.kind, 'purged');
  assert.deepEqual(receiptBodyGone({ bodyPurgedAt: at, erasedAt: at, bodySha256: 'ab' }, 30 * 86_400_000), {
    kind: 'erased',
    at: at.toISOString(),
    sha256: 'ab',
    note: 'body erased on 2026-11-20 (donor erasure)',
  });
});

test('an answer an erasure emptied says so, never retention; a stopped delivery says why', () => {
  const at = '2026-11-22T10:00:00.000Z';
  assert.deepEqual(responseGone({ at, retention: '90d', sha256: 'ab', reason: 'erasure' }), {
    kind: 'erased',
    at,
    sha256: 'ab',
    note: 'response body erased on 2026-11-22 (donor erasure)',
  });
  assert.equal(responseGone({ at, retention: '90d', sha256: 'ab', reason: 'retention' })?.note, 'response body purged on 2026-11-22 (retention 90d)');
  assert.equal(responseGone({ at, retention: '90d' })?.kind, 'purged', 'a service that does not say the reason: retention, as before');
  assert.equal(retriesStoppedNote({ reason: 'donor_erased', at }), 'retries stopped: donor data erased on 2026-11-22');
  assert.equal(retriesStoppedNote({ reason: 'payload_purged', at }), 'retries stopped: payload purged on 2026-11-22 (retention)');
});

test('a payload tombstone is told from an event; an event is never taken for one', () => {
  assert.deepEqual(payloadGone({ purged: { at: '2026-11-20T10:00:00.000+00:00', retention: '90d', size: 10, sha256: 'ab' } }), {
    kind: 'purged',
    at: '2026-11-20T10:00:00.000+00:00',
    sha256: 'ab',
    note: 'payload purged on 2026-11-20 (retention 90d)',
  });
  assert.equal(payloadGone({ erased: { at: '2026-11-21T10:00:00Z', sha256: 'cd' } })?.note, 'payload erased on 2026-11-21 (donor erasure)');
  assert.equal(payloadGone({ purged: { at: 'not a time' } })?.note, 'payload purged on not a time (retention ?)', 'an odd one does not throw');
  for (const event of [null, 'text', { type: 'grant.succeeded', data: {} }, { purged: true }, { purged: { at: 'x' }, type: 'grant.succeeded' }]) {
    assert.equal(payloadGone(event), null, JSON.stringify(event));
  }
});

test('passes come every 10 minutes, or a fifth of the shortest retention, at least a second apart', () => {
  assert.equal(purgeIdleMs(30 * 86_400_000, 365 * 86_400_000), 600_000, 'days of retention: every 10 minutes, not every minute');
  assert.equal(purgeIdleMs(3_600_000), 600_000, "the production floor's hour: 10 minutes");
  assert.equal(purgeIdleMs(5000, 172_800_000), 1000);
  assert.equal(purgeIdleMs(100_000), 20_000);
});

test('a batch that takes long halves the next, a quick one doubles it, within bounds', () => {
  assert.equal(nextBatch(1000, 400, 1000).size, 500);
  assert.equal(nextBatch(12, 400, 1000).size, 10);
  assert.equal(nextBatch(100, 5, 1000).size, 200);
  assert.equal(nextBatch(800, 5, 1000).size, 1000);
  assert.equal(nextBatch(300, 50, 1000).size, 300);
});

test("a slow batch whose halving did not shorten it keeps its size: the time is the statement's, not its rows'", () => {
  // Rows' time: 1000 rows 400 ms, 500 rows 200 ms, 250 rows 100 ms: halved each time, down to the target.
  let b = nextBatch(1000, 400, 1000);
  assert.deepEqual(b, { ran: 1000, ms: 400, size: 500, floor: 10 });
  b = nextBatch(500, 200, 1000, b);
  assert.equal(b.size, 250);
  // The statement's time (planning over every partition on a busy store): 1000 rows 300 ms, 500 rows 280 ms.
  b = nextBatch(1000, 300, 1000);
  b = nextBatch(500, 280, 1000, b);
  assert.deepEqual(b, { ran: 500, ms: 280, size: 1000, floor: 1000 }, 'back to the size halving did not help, now the floor');
  b = nextBatch(1000, 310, 1000, b);
  assert.equal(b.size, 1000, 'and it stays there while the batches are slow');
  b = nextBatch(1000, 10, 1000, b);
  assert.equal(b.size, 1000);
});
