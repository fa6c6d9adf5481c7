import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EndpointSlots } from '@/lib/service/delivery/endpoint-slots';
import { Wakeup } from '@/lib/service/delivery/wakeup';

test('a wake-up that comes before the wait is kept; several count as one', async (t) => {
  // Mocked timers: the early wait must end with no time passing at all (a real clock could only say "soon").
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const w = new Wakeup();
  w.notify();
  w.notify();
  let first = false;
  void w.wait(5_000).then(() => (first = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(first, true, 'the early notify ends the wait at once');
  let woke = false;
  void w.wait(5_000).then(() => (woke = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(woke, false, 'the second notify was not kept as another wake-up');
  w.notify();
  await new Promise((r) => setImmediate(r));
  assert.equal(woke, true);
});

test('a wait without a wake-up ends at its timeout, not before', async (t) => {
  // Mocked timers: a real 20 ms timer could fire before the check below on a busy machine.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const w = new Wakeup();
  let woke = false;
  const waiting = w.wait(20).then(() => (woke = true));
  t.mock.timers.tick(19);
  await Promise.resolve();
  assert.equal(woke, false);
  t.mock.timers.tick(1);
  await waiting;
  assert.equal(woke, true);
});

test('endpoint slots: at most `limit` per endpoint, others unaffected, a freed slot free again', () => {
  const slots = new EndpointSlots(2);
  assert.equal(slots.tryAcquire('a'), true);
  assert.equal(slots.tryAcquire('a'), true);
  assert.equal(slots.tryAcquire('a'), false, 'a is at its limit');
  assert.equal(slots.tryAcquire('b'), true, "another endpoint does not wait for a's");
  slots.release('a');
  assert.equal(slots.tryAcquire('a'), true);
  assert.equal(slots.tryAcquire('a'), false);
  for (let i = 0; i < 2; i++) slots.release('a');
  assert.equal(slots.tryAcquire('a'), true);
  assert.equal(slots.tryAcquire('a'), true);
});
