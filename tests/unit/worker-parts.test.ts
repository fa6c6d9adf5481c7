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

test('endpoint slots: at most `limit` per endpoint, others unaffected, freed slots passed on in order', async () => {
  const slots = new EndpointSlots(2);
  const order: string[] = [];
  await slots.acquire('a');
  await slots.acquire('a');
  const third = slots.acquire('a').then(() => order.push('a3'));
  const fourth = slots.acquire('a').then(() => order.push('a4'));
  await slots.acquire('b'); // another endpoint does not wait for a's
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, []);
  slots.release('a');
  await third;
  assert.deepEqual(order, ['a3']);
  slots.release('a');
  await fourth;
  assert.deepEqual(order, ['a3', 'a4']);
  for (let i = 0; i < 2; i++) slots.release('a');
  await slots.acquire('a');
  await slots.acquire('a');
});
