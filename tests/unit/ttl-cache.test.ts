import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ttlCache } from '@/lib/ttl-cache';

// The per-process cache behind docs/API.md's staleness bounds: an entry lives at most its TTL from
// the moment its read began; a delete overtaking a read in flight keeps that read out.

// A clock the test moves by hand: real time on a loaded machine can pass a 60 ms TTL between two
// lines of the test (it did: `2 !== 1`).
function manualClock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => void (ms += by) };
}

test('a value is read once within the TTL, and again after it', async () => {
  const clock = manualClock();
  const cache = ttlCache<string, number>(`t1-${Math.random()}`, { ttlMs: 60, now: clock.now });
  let reads = 0;
  const load = async () => ++reads;
  assert.deepEqual(await Promise.all([cache.get('k', load), cache.get('k', load)]), [1, 1], 'concurrent misses share one read');
  clock.advance(59);
  assert.equal(await cache.get('k', load), 1, 'still within the TTL');
  clock.advance(1);
  assert.equal(await cache.get('k', load), 2, 'read again once the TTL is over');
  assert.equal(await cache.get('k', load), 2);
});

test('the TTL runs from the start of the read, not its end', async () => {
  const clock = manualClock();
  const cache = ttlCache<string, number>(`t2-${Math.random()}`, { ttlMs: 50, now: clock.now });
  let reads = 0;
  await cache.get('k', async () => {
    clock.advance(40); // the read itself takes 40 ms
    return ++reads;
  });
  clock.advance(10); // 50 ms after the read began, 10 after it ended
  assert.equal(await cache.get('k', async () => ++reads), 2);
});

test('a delete drops the entry at once, and a read it overtook is not kept', async () => {
  const cache = ttlCache<string, string>(`t3-${Math.random()}`, { ttlMs: 10_000 });
  let release!: () => void;
  const slow = cache.get('k', () => new Promise((r) => (release = () => r('before the change'))));
  cache.delete('k');
  release();
  assert.equal(await slow, 'before the change');
  assert.equal(await cache.get('k', async () => 'after'), 'after');
  cache.clear();
  assert.equal(await cache.get('k', async () => 'again'), 'again');
});

test('a failed read is not kept', async () => {
  const cache = ttlCache<string, string>(`t4-${Math.random()}`, { ttlMs: 10_000 });
  await assert.rejects(
    cache.get('k', async () => Promise.reject(new Error('store away'))),
    /store away/,
  );
  assert.equal(await cache.get('k', async () => 'back'), 'back');
});
