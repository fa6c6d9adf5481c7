import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupCommit } from '@/lib/db/group-commit';

// A write that takes a turn of the event loop, like a database round trip, and logs its batches.
function recordingWrite(fail: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const write = async (items: number[]) => {
    batches.push(items);
    await new Promise((r) => setImmediate(r));
    if (items.some(fail)) throw new Error(`bad item in ${items.join(',')}`);
    return items.map((i) => i * 10);
  };
  return { batches, write };
}

test('a lone write goes at the end of its turn; writes arriving meanwhile share the next batch', async () => {
  const { batches, write } = recordingWrite();
  const g = groupCommit(write);
  const first = g.submit(1);
  await new Promise((r) => setImmediate(r)); // its batch is in flight now
  const results = await Promise.all([first, ...[2, 3, 4, 5].map((i) => g.submit(i))]);
  assert.deepEqual(results, [10, 20, 30, 40, 50]);
  assert.deepEqual(batches, [[1], [2, 3, 4, 5]]);
});

test('writes submitted from separate callbacks of one turn of the event loop share a batch', async () => {
  // As requests read from several sockets in one poll: each arrives in its own callback, and a
  // store on this thread (PGlite) reads none of them while it writes, so none would queue behind it.
  // Four immediates queued now run in one check phase (setTimeout(0) would not: each timer is due
  // at its own millisecond, so a slow machine may run them in two turns).
  const batches: number[][] = [];
  const g = groupCommit(async (items: number[]) => {
    batches.push(items);
    return items;
  });
  const submitted = await Promise.all([1, 2, 3, 4].map((i) => new Promise<Promise<number>>((resolve) => setImmediate(() => resolve(g.submit(i))))));
  assert.deepEqual(await Promise.all(submitted), [1, 2, 3, 4]);
  assert.deepEqual(batches, [[1, 2, 3, 4]]);
});

test('batches are capped at maxBatch and run maxInFlight at a time', async () => {
  const { batches, write } = recordingWrite();
  const g = groupCommit(write, { maxBatch: 2, maxInFlight: 2 });
  const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => g.submit(i)));
  assert.deepEqual(results, [10, 20, 30, 40, 50, 60, 70]);
  assert.ok(batches.every((b) => b.length <= 2));
  assert.deepEqual(batches.flat().sort(), [1, 2, 3, 4, 5, 6, 7]);
  await g.drain();
});

test('a failing batch is retried item by item: only the bad item fails', async () => {
  const { batches, write } = recordingWrite((i) => i === 3);
  const g = groupCommit(write);
  const settled = await Promise.allSettled([1, 2, 3, 4].map((i) => g.submit(i)));
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.deepEqual(batches[0], [1, 2, 3, 4]);
  assert.deepEqual(batches.slice(1), [[1], [2], [3], [4]]);
});

test('a write returning the wrong number of results fails its callers', async () => {
  const g = groupCommit(async (items: number[]) => items.slice(1));
  const settled = await Promise.allSettled([g.submit(1), g.submit(2)]);
  for (const s of settled) assert.match(String(s.status === 'rejected' && s.reason), /results for/);
});
