import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase } from '../helpers/in-process-db';
import type * as TLoop from '../../lib/db/purge-loop';

// The retention loop's two kinds of step (lib/db/purge-loop.ts), on a real database opened by the app's own code (PGlite, or
// PostgreSQL with TEST_DATABASE_URL: the loop's lease). A batched step (rows one statement at a time) that took a full batch
// is run again after a rest as long as it took; a whole step (the partition drops, under their own budget) is run again
// only when it says its budget left more, and at once: before, a drop's rows counted as a full batch, and every pass rested
// after each partition step as long as its drops had taken (half of a year bench's time to the last drop).

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let loop: typeof TLoop;

before(async () => {
  opened = await openTestDatabase('purge-loop-steps');
  loop = await import('../../lib/db/purge-loop');
});
after(async () => {
  await opened?.close();
});

test('a whole step runs again only when it says more, without a rest; a full batch runs again after one', async () => {
  const SLOW_MS = 1500;
  const calls: { what: string; at: number; ended?: number }[] = [];
  const timed = async <T>(what: string, job: () => Promise<T>) => {
    const c: { what: string; at: number; ended?: number } = { what, at: Date.now() };
    calls.push(c);
    const r = await job();
    c.ended = Date.now();
    return r;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let wholes = 0;
  let batches = 0;
  const steps: TLoop.TPurgeStep[] = [
    // Drops for SLOW_MS, then says its budget left more; the second run finds the rest.
    { what: 'whole', run: () => timed('whole', async () => (++wholes === 1 ? (await sleep(SLOW_MS), { purged: 7, more: true }) : { purged: 2, more: false })) },
    // A full batch that took SLOW_MS, then a short one.
    { what: 'rows', run: (limit) => timed('rows', async () => (++batches === 1 ? (await sleep(SLOW_MS), limit) : 3)) },
  ];
  let ended: (purged: number) => void = () => {};
  const passEnded = new Promise<number>((resolve) => (ended = resolve));
  const lease = { table: 'service.leases' as const, name: 'purge-loop-steps-test' };
  loop.startPurgeLoop({ lease, steps: () => steps, idleMs: () => 60_000, onPass: async (event, purged) => void (event === 'end' && ended(purged)) });
  loop.wakePurgeLoop(lease);
  const purged = await passEnded;
  await loop.stopPurgeLoop(lease);

  assert.deepEqual(
    calls.map((c) => c.what),
    ['whole', 'whole', 'rows', 'rows'],
  );
  const limit = purged - 7 - 2 - 3;
  assert.ok(limit > 0, `the full batch counted (${purged})`);
  // The whole step's second run follows its first at once (past the tick's budget: the loop's pause, 100 ms, and a lease);
  // the full batch's second after a rest as long as it took.
  const wholeGap = calls[1].at - calls[0].ended!;
  const rowsGap = calls[3].at - calls[2].ended!;
  assert.ok(wholeGap < SLOW_MS / 2, `the whole step ran again ${wholeGap} ms after (no rest)`);
  assert.ok(rowsGap >= SLOW_MS - 50, `the full batch ran again ${rowsGap} ms after (its rest)`);
});

test("a pass's state is kept from one batch to the next, through the ticks, and begins empty with each pass (the body purges' cursors)", async () => {
  // A step that takes full batches until its fourth, noting what the pass held before each and moving its cursor on.
  const seen: (string | undefined)[] = [];
  let runs = 0;
  const steps: TLoop.TPurgeStep[] = [
    {
      what: 'bodies',
      run: async (limit, pass) => {
        seen.push(pass.get('bodies'));
        pass.set('bodies', `after-${++runs}`);
        return runs % 4 === 0 ? 0 : limit;
      },
    },
  ];
  const passes: number[] = [];
  let twoEnded: () => void = () => {};
  const two = new Promise<void>((resolve) => (twoEnded = resolve));
  const lease = { table: 'service.leases' as const, name: 'purge-loop-cursor-test' };
  loop.startPurgeLoop({
    lease,
    steps: () => steps,
    idleMs: () => 200,
    onPass: async (event) => {
      if (event === 'end' && passes.push(runs) === 2) twoEnded();
    },
  });
  loop.wakePurgeLoop(lease);
  await two;
  await loop.stopPurgeLoop(lease);
  assert.deepEqual(passes, [4, 8]);
  assert.deepEqual(seen, [undefined, 'after-1', 'after-2', 'after-3', undefined, 'after-5', 'after-6', 'after-7']);
});
