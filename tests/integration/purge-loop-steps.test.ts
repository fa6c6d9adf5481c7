import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase } from '../helpers/in-process-db';
import type * as TLoop from '../../lib/db/purge-loop';

// The retention loop's two kinds of step (lib/db/purge-loop.ts), on a real database opened by the app's own code (PGlite, or
// PostgreSQL with TEST_DATABASE_URL: the loop's lease). A batched step (rows one statement at a time) that took a full batch
// is run again after a rest as long as it took; a whole step (the partition drops, under their own budget) is run again
// only when it says its budget left more, and at once: before, a drop's rows counted as a full batch, and every pass rested
// after each partition step as long as its drops had taken (half of a year bench's time to the last drop).

const postgres = Boolean(process.env.TEST_DATABASE_URL);
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
    {
      what: 'whole',
      whole: true,
      run: () => timed('whole', async () => (++wholes === 1 ? (await sleep(SLOW_MS), { purged: 7, more: true }) : { purged: 2, more: false })),
    },
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

test(
  'on PostgreSQL a row batch waits while other statements run; a whole step does not',
  { skip: !postgres && 'PostgreSQL only: an embedded store is one connection' },
  async () => {
    const BUSY_MS = 2500;
    const runs: { what: string; at: number }[] = [];
    let batches = 0;
    const steps: TLoop.TPurgeStep[] = [
      { what: 'whole', whole: true, run: async () => (runs.push({ what: 'whole', at: Date.now() }), { purged: 1, more: false }) },
      { what: 'rows', run: async (limit) => (runs.push({ what: 'rows', at: Date.now() }), ++batches === 1 ? limit : 0) },
    ];
    // Statements of other sessions (the pool's other connections) that run BUSY_MS, started before the pass: one is enough
    // (ingest's receipts are one group-committed statement at a time); two, so the quiet is not one's end and the other's start.
    const sql = opened!.client.driverRows;
    const busyFrom = Date.now();
    // When the sleeps ended, read as they end: read after the pass and its stop, it moved by however long those took
    // on a loaded machine (red once in CI).
    const busyUntil = Promise.all([1, 2].map(() => sql(`select pg_sleep(${BUSY_MS / 1000})`, []))).then(() => Date.now());
    await new Promise((r) => setTimeout(r, 200));
    let ended: () => void = () => {};
    const passEnded = new Promise<void>((resolve) => (ended = resolve));
    const lease = { table: 'service.leases' as const, name: 'purge-loop-quiet-test' };
    loop.startPurgeLoop({ lease, steps: () => steps, idleMs: () => 60_000, onPass: async (event) => void (event === 'end' && ended()) });
    loop.wakePurgeLoop(lease);
    await passEnded;
    await loop.stopPurgeLoop(lease);
    const busyEnded = await busyUntil;

    assert.deepEqual(
      runs.map((r) => r.what),
      ['whole', 'rows', 'rows'],
    );
    assert.ok(runs[0].at < busyFrom + BUSY_MS - 500, `the whole step ran while the store was busy (${runs[0].at - busyFrom} ms in)`);
    assert.ok(runs[1].at >= busyEnded - 150, `the first batch waited for the quiet (${busyEnded - runs[1].at} ms before the others ended)`);
    const { metrics } = await import('../../lib/metrics/registry');
    const waited = (await metrics().gcQuietWait.get()).values.find((v) => v.labels.loop === lease.name)?.value ?? 0;
    assert.ok(waited >= (BUSY_MS - 700) / 1000, `the wait is counted (${waited} s)`);
  },
);

test(
  "on PostgreSQL a row batch waits while the other half's partition drop runs in this process, though the store looks quiet",
  { skip: !postgres && 'PostgreSQL only: an embedded store is one connection' },
  async () => {
    // Both halves' passes start at once (a change of the retention wakes both). A half whose drops ended first went on to its
    // row batches in the other's drops' window, where the store looks quiet between statements at 500 ingests a second.
    const DROP_MS = 1500;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let dropEnded = 0;
    const rowsAt: number[] = [];
    const drop: TLoop.TPurgeStep = {
      what: 'drop',
      whole: true,
      run: async () => (await sleep(DROP_MS), (dropEnded = Date.now()), { purged: 1, more: false }),
    };
    const rows: TLoop.TPurgeStep = { what: 'rows', run: async (limit) => (rowsAt.push(Date.now()), rowsAt.length === 1 ? limit : 0) };
    const pass = (lease: TLoop.TPurgeLoopSpec['lease'], steps: TLoop.TPurgeStep[]) => {
      let ended: () => void = () => {};
      const passEnded = new Promise<void>((resolve) => (ended = resolve));
      loop.startPurgeLoop({ lease, steps: () => steps, idleMs: () => 60_000, onPass: async (event) => void (event === 'end' && ended()) });
      void loop.wakePurgeLoop(lease);
      return passEnded;
    };
    const dropping = { table: 'service.leases' as const, name: 'purge-loop-drop-half-test' };
    const batching = { table: 'console.leases' as const, name: 'purge-loop-rows-half-test' };
    const dropped = pass(dropping, [drop]);
    await sleep(200);
    await Promise.all([dropped, pass(batching, [rows])]);
    await Promise.all([loop.stopPurgeLoop(dropping), loop.stopPurgeLoop(batching)]);
    assert.equal(rowsAt.length, 2);
    assert.ok(rowsAt[0] >= dropEnded, `the first row batch waited for the drop (${dropEnded - rowsAt[0]} ms before it ended)`);
  },
);

test(
  'on PostgreSQL a store busy for longer than 10 s does not stop the purge: a batch goes 10 s after the last',
  { skip: !postgres && 'PostgreSQL only' },
  async () => {
    const BUSY_MS = 13_000;
    const runs: number[] = [];
    const steps: TLoop.TPurgeStep[] = [{ what: 'rows', run: async (limit) => (runs.push(Date.now()), runs.length < 2 ? limit : 0) }];
    const sql = opened!.client.driverRows;
    const busyEnded = Promise.all([1, 2].map(() => sql(`select pg_sleep(${BUSY_MS / 1000})`, []))).then(() => Date.now());
    await new Promise((r) => setTimeout(r, 200));
    let ended: () => void = () => {};
    const passEnded = new Promise<void>((resolve) => (ended = resolve));
    const lease = { table: 'service.leases' as const, name: 'purge-loop-starve-test' };
    const started = Date.now();
    loop.startPurgeLoop({ lease, steps: () => steps, idleMs: () => 60_000, onPass: async (event) => void (event === 'end' && ended()) });
    loop.wakePurgeLoop(lease);
    await passEnded;
    await loop.stopPurgeLoop(lease);
    const busyUntil = await busyEnded;
    assert.equal(runs.length, 2);
    // The first batch at the pass's start + 10 s, the second 10 s after it (the store still busy for the first).
    assert.ok(runs[0] - started >= 9_800 && runs[0] < busyUntil, `the first batch went ${runs[0] - started} ms after the pass started, in the busy time`);
    assert.ok(runs[1] - runs[0] >= 9_800 || runs[1] >= busyUntil - 150, `the second waited its 10 s or the quiet (${runs[1] - runs[0]} ms)`);
  },
);

test('woken during a pass (the settings changed as it ran), the loop starts its next pass as that one ends, not at its interval', async () => {
  // Before, the wake found the loop in its tick, not in its wait: the pass that had read the old settings ended, and the
  // next waited the whole interval (10 minutes at the defaults).
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let runs = 0;
  const steps: TLoop.TPurgeStep[] = [{ what: 'rows', run: async () => (++runs === 1 && (await held), 0) }];
  let starts = 0;
  let secondStarted: () => void = () => {};
  const second = new Promise<'again'>((r) => (secondStarted = () => r('again')));
  const lease = { table: 'service.leases' as const, name: 'purge-loop-again-test' };
  loop.startPurgeLoop({
    lease,
    steps: () => steps,
    idleMs: () => 60_000,
    onPass: async (event) => void (event === 'start' && ++starts === 2 && secondStarted()),
  });
  await loop.wakePurgeLoop(lease);
  for (let i = 0; runs === 0 && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(runs, 1, 'the first pass is under way');
  await loop.wakePurgeLoop(lease);
  release();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 10_000)));
  const outcome = await Promise.race([second, timeout]);
  clearTimeout(timer);
  await loop.stopPurgeLoop(lease);
  assert.equal(outcome, 'again', `a second pass started (${starts} started)`);
});

test('a pass ends when reading its steps takes longer than a tick: each tick runs a batch at least', async () => {
  // Before, the tick's 1 s budget began before its steps were read: a store slow enough to read them in over a second
  // returned every tick with nothing done, and the pass went on for ever (a full-size year bench's restart under load).
  let batches = 0;
  const steps: TLoop.TPurgeStep[] = [{ what: 'rows', run: async (limit) => (++batches < 3 ? limit : 0) }];
  let ended: () => void = () => {};
  const passEnded = new Promise<void>((resolve) => (ended = resolve));
  const lease = { table: 'service.leases' as const, name: 'purge-loop-slow-steps-test' };
  const slowSteps = async () => (await new Promise((r) => setTimeout(r, 1200)), steps);
  loop.startPurgeLoop({ lease, steps: slowSteps, idleMs: () => 60_000, onPass: async (event) => void (event === 'end' && ended()) });
  loop.wakePurgeLoop(lease);
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000).unref());
  const outcome = await Promise.race([passEnded.then(() => 'ended' as const), timeout]);
  await loop.stopPurgeLoop(lease);
  assert.equal(outcome, 'ended', `the pass ended (${batches} batches)`);
  assert.equal(batches, 3);
});
