import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ttlCache } from '@/lib/service/ttl-cache';

// The per-process cache behind docs/API.md's staleness bounds: an entry lives at most its TTL from
// the moment its read began; a delete overtaking a read in flight keeps that read out.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a value is read once within the TTL, and again after it', async () => {
  const cache = ttlCache<string, number>(`t1-${Math.random()}`, { ttlMs: 60 });
  let reads = 0;
  const load = async () => ++reads;
  assert.deepEqual(await Promise.all([cache.get('k', load), cache.get('k', load)]), [1, 1], 'concurrent misses share one read');
  assert.equal(await cache.get('k', load), 1);
  await sleep(70);
  assert.equal(await cache.get('k', load), 2);
});

test('the TTL runs from the start of the read, not its end', async () => {
  const cache = ttlCache<string, number>(`t2-${Math.random()}`, { ttlMs: 50 });
  let reads = 0;
  await cache.get('k', async () => {
    await sleep(40);
    return ++reads;
  });
  await sleep(15); // 55 ms after the read began
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
  await assert.rejects(cache.get('k', async () => Promise.reject(new Error('store away'))), /store away/);
  assert.equal(await cache.get('k', async () => 'back'), 'back');
});
