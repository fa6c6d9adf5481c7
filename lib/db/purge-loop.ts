import { randomUUID } from 'node:crypto';
import { metrics } from '@/lib/metrics/registry';
import { processSingleton } from '@/lib/process-singleton';
import { env } from '@/lib/env';
import { dbKind, getDb } from './client';
import { listenDb } from './listen';
import { driverRows } from './query';
import { isStoreUnavailable } from './store-availability';
import { storeQuiet } from './store-quiet';
import { releaseLease, takeLease, type TLease } from './take-lease';

// The retention purge's timer, one per half (lib/service/retention, lib/console/retention), beside the
// delivery worker in the worker process. A pass runs each step's batches (one statement each, at most
// RETENTION_BATCH_ROWS rows) until the step has nothing left. A batch should take about
// BATCH_TARGET_MS: one that took longer halves the next (down to MIN_BATCH rows), a quick one doubles
// it (up to the setting), so ingest never waits long behind one. After each batch the purge rests as
// long as the batch took (at most half the store's time: PGlite has one connection); a tick works at
// most TICK_BUDGET_MS, then yields for PAUSE_MS, and the pass goes on at the next tick. Every
// batch commits on its own, so a kill -9 loses at most the batch in flight (which then did nothing)
// and the next start resumes where it was. On PostgreSQL a row batch first waits, up to QUIET_WAIT_MS since
// the last, while another statement runs (store-quiet.ts) or a partition drop of either half runs in this process (the
// drops' window is ingest's alone, with what the drops need): under a steady load it goes at most that often,
// and the partition drops never wait. On PostgreSQL a lease in the half's own schema makes it one
// process at a time (the lease runs out LEASE_MS after a holder died); a PGlite directory is one process's already.
// A change of the settings starts a pass at once (wakePurgeLoop): in this process, and on PostgreSQL by a NOTIFY in the
// others (a web instance's admin beside `npm run worker` processes, where the loops run), which would otherwise wait
// for their idle interval (up to 10 minutes).

const TICK_BUDGET_MS = 1000;
const PAUSE_MS = 100;
const LEASE_MS = 10_000;
const BATCH_TARGET_MS = 50;
const MIN_BATCH = 10;
const PASS_EVERY_MAX_MS = 10 * 60_000;
const QUIET_WAIT_MS = 10_000;
const QUIET_POLL_MS = 50;

/**
 * A step's run takes one batch of at most `limit` rows and says how many it took: a full batch means more are left. A step
 * that does its work whole under its own time budget (the partition drops) says instead what it took and whether its
 * budget stopped it with more to do: it is run again only then, and without the rest a batch is given after it (the
 * rest spaces out statements that hold rows; a drop's waits are DDL's, under their own lock timeout).
 */
export type TStepOutcome = { purged: number; more: boolean };
/**
 * What a pass's steps keep between their batches, begun empty with each pass: the body purges' cursors (the time of the
 * last row a batch took, so the next starts there and does not read again the held rows it passed: purge-cursor.ts).
 */
export type TPassState = Map<string, string>;
export type TPurgeStep = {
  what: string;
  run: (limit: number, pass: TPassState) => Promise<number | TStepOutcome>;
  /** A step that does its work whole under its own budget (a partition drop): it never waits for a quiet store. */
  whole?: boolean;
};
export type TPurgeLoopSpec = {
  /** The lease, in the half's own leases table; its name names the loop and its log lines. */
  lease: TLease;
  /** The steps of a tick, with the settings in effect now (an admin may change them between passes). */
  steps: () => TPurgeStep[] | Promise<TPurgeStep[]>;
  /** How long to wait between passes that found nothing left. */
  idleMs: () => number;
  /** A pass starts, or ends having purged `purged` rows in all. */
  onPass?: (event: 'start' | 'end', purged: number) => Promise<void>;
  /** Another process changed the settings (its wake is about to start a pass): what this process cached of them goes. */
  onChanged?: () => void;
};

/** The channel wakePurgeLoop notifies on PostgreSQL: `<loop's name> <waking process>`. */
const WAKE_CHANNEL = 'gc_purge_wake';
/** This process, in its notifies: its own loops were woken in place, and pass over theirs. */
const PROCESS = processSingleton('purge-loop-process', () => randomUUID());

/**
 * The passes' interval: a fifth of the shortest retention (tests use seconds), at most 10 minutes —
 * a row is purged at most that late after its time (retentions are an hour at least in production,
 * days by default), and an idle app does not run both halves' passes once a minute. A change of the
 * settings starts a pass at once (wakePurgeLoop).
 */
export function purgeIdleMs(...retentions: number[]): number {
  return Math.max(1000, Math.min(PASS_EVERY_MAX_MS, ...retentions.map((r) => r / 5)));
}

// `step`: where a pass that ran out of its tick goes on at the next tick (a pass of many steps — one per
// account with its own retention — reaches its last step however many there are).
type TLoop = {
  owner: string;
  stopped: boolean;
  running: Promise<void> | null;
  wake: () => void;
  passPurged: number;
  batch: Map<string, TBatchState>;
  step: number;
  pass: TPassState;
  /** Until when a row batch waits for a quiet store (QUIET_WAIT_MS after the pass's start or its last batch). */
  quietBy: number;
  /** Woken since the pass under way started (the settings changed during it): the next pass starts as this one ends. */
  again: boolean;
};

/** A step's last batch in this pass: its rows and time, the next batch's size, and the size below which fewer rows did not take less time. */
export type TBatchState = { ran: number; ms: number; size: number; floor: number };

/**
 * The next batch after one of `size` rows took `ms` (`last`: the step's batch before it in this pass). A slow batch halves
 * the next, unless halving the last did not shorten this one: then the time is the statement's own (its planning over
 * every partition, a scan to the first due row), not its rows', and fewer rows would only mean more statements (a busy
 * store's batches fell to 10 rows and a full-size year's body purges to ~43 rows/s). That size becomes the pass's floor.
 */
export function nextBatch(size: number, ms: number, max: number, last?: TBatchState): TBatchState {
  let floor = last?.floor ?? MIN_BATCH;
  let next = size;
  if (ms > 2 * BATCH_TARGET_MS) {
    if (last && last.ran > size && ms > 0.75 * last.ms) floor = Math.min(max, last.ran);
    next = Math.max(floor, MIN_BATCH, Math.floor(size / 2));
  } else if (ms < BATCH_TARGET_MS / 2) next = Math.min(max, size * 2);
  return { ran: size, ms, size: Math.min(max, next), floor };
}
const loops = processSingleton('purge-loops', (): Map<string, TLoop> => new Map());
/** Whole steps (partition drops) under way in this process, of either half: a row batch waits for them as for a busy store. */
const drops = processSingleton('purge-loop-drops', () => ({ running: 0 }));
const quietNow = async () => drops.running === 0 && (await storeQuiet());

type TOutcome = 'more' | 'done' | 'skipped' | 'busy';

async function tick(spec: TPurgeLoopSpec, loop: TLoop, inPass: boolean): Promise<TOutcome> {
  const db = await getDb();
  const leased = (await dbKind()) === 'postgres';
  if (leased && !(await takeLease(db, spec.lease, loop.owner, LEASE_MS))) return 'skipped';
  try {
    if (!inPass) {
      loop.passPurged = 0;
      loop.step = 0;
      loop.pass = new Map();
      loop.batch = new Map();
      loop.quietBy = Date.now() + QUIET_WAIT_MS;
      await spec.onPass?.('start', 0);
    }
    const steps = await spec.steps();
    // The budget counts from here, and a tick runs one batch at least: a store so slow that reading the steps took the
    // whole budget left every tick with nothing done, and the pass never ended.
    const until = Date.now() + TICK_BUDGET_MS;
    let ran = false;
    for (; loop.step < steps.length; loop.step++) {
      const step = steps[loop.step];
      for (;;) {
        if (loop.stopped || (ran && Date.now() > until)) return 'more';
        if (leased && !step.whole && Date.now() < loop.quietBy && !(await quietNow())) return 'busy';
        const size = Math.min(env.RETENTION_BATCH_ROWS, loop.batch.get(step.what)?.size ?? env.RETENTION_BATCH_ROWS);
        const started = performance.now();
        if (step.whole) drops.running++;
        const r = await step.run(size, loop.pass).finally(() => step.whole && drops.running--);
        const took = performance.now() - started;
        ran = true;
        const n = typeof r === 'number' ? r : r.purged;
        if (n > 0) metrics().gcPurged.inc({ what: step.what }, n);
        loop.passPurged += n;
        if (typeof r !== 'number') {
          if (!r.more) break;
          continue;
        }
        if (!step.whole) loop.quietBy = Date.now() + QUIET_WAIT_MS;
        if (n < size) break;
        loop.batch.set(step.what, nextBatch(size, took, env.RETENTION_BATCH_ROWS, loop.batch.get(step.what)));
        await new Promise((r) => setTimeout(r, took));
        if (leased) await takeLease(db, spec.lease, loop.owner, LEASE_MS);
      }
    }
    await spec.onPass?.('end', loop.passPurged);
    return 'done';
  } finally {
    if (leased) await releaseLease(db, spec.lease, loop.owner).catch(() => {});
  }
}

/** Waits, without the lease, until the store is quiet or the loop's wait is up (or it is stopped). */
async function waitForQuiet(loop: TLoop, name: string): Promise<void> {
  const started = performance.now();
  try {
    while (!loop.stopped && Date.now() < loop.quietBy && !(await quietNow())) await new Promise((r) => setTimeout(r, QUIET_POLL_MS));
  } finally {
    metrics().gcQuietWait.inc({ loop: name }, (performance.now() - started) / 1000);
  }
}

/** Starts the named loop (once per process); it runs until stopPurgeLoop. */
export function startPurgeLoop(spec: TPurgeLoopSpec): void {
  const name = spec.lease.name;
  const existing = loops.get(name);
  if (existing && !existing.stopped) return;
  const loop: TLoop = {
    owner: `${name}-${randomUUID()}`,
    stopped: false,
    running: null,
    wake: () => {},
    passPurged: 0,
    batch: new Map(),
    step: 0,
    pass: new Map(),
    quietBy: 0,
    again: false,
  };
  loops.set(name, loop);
  const listening = listenForWakes(spec, loop).catch((err: Error) => {
    console.warn(`${name}: not woken by other processes' changes (it runs at its interval): ${err.message}`);
    return null;
  });
  loop.running = (async () => {
    let inPass = false;
    let failures = 0;
    // The first pass starts soon after the process does, not at once (the start has other work).
    let wait = 2000;
    for (;;) {
      // Stopped during a tick: its wake() resolved the sleep before it, and this one's timer (unref'd) may never fire.
      if (loop.stopped) return void (await (await listening)?.());
      await new Promise<void>((resolve) => {
        loop.wake = resolve;
        setTimeout(resolve, wait).unref();
      });
      if (loop.stopped) return void (await (await listening)?.());
      if (!inPass) loop.again = false;
      const outcome: TOutcome | 'failed' = await tick(spec, loop, inPass).catch((err: Error) => {
        if (!isStoreUnavailable(err)) console.warn(`${name}: ${err.message}`);
        return 'failed' as const;
      });
      failures = outcome === 'failed' ? failures + 1 : 0;
      inPass = outcome === 'more' || outcome === 'busy' || (outcome === 'failed' && inPass);
      if (outcome === 'busy') await waitForQuiet(loop, name).catch(() => {});
      wait =
        outcome === 'busy' || (outcome === 'done' && loop.again)
          ? 0
          : outcome === 'more'
            ? PAUSE_MS
            : outcome === 'failed'
              ? Math.min(spec.idleMs(), 1000 * 2 ** failures)
              : spec.idleMs();
    }
  })();
}

/** Stops between batches (a batch under way finishes: it is one statement); null when it was not running. */
export async function stopPurgeLoop(lease: TLease): Promise<null | undefined> {
  const loop = loops.get(lease.name);
  if (!loop || loop.stopped) return null;
  loop.stopped = true;
  loop.wake();
  await loop.running;
}

/** Ends the loop's wait; woken during a pass, it starts the next as that one ends (the pass under way may have read the old settings). */
function wake(loop: TLoop): void {
  loop.again = true;
  loop.wake();
}

/** On PostgreSQL, another process's wakePurgeLoop of this loop (or a reconnect, which may have missed one) wakes it. */
async function listenForWakes(spec: TPurgeLoopSpec, loop: TLoop) {
  if ((await dbKind()) !== 'postgres') return null;
  return listenDb(WAKE_CHANNEL, (payload) => {
    const [name, from] = payload?.split(' ') ?? [];
    if (payload !== undefined && (name !== spec.lease.name || from === PROCESS)) return;
    spec.onChanged?.();
    wake(loop);
  });
}

/**
 * Starts the named loop's next pass now (settings changed): in this process, and on PostgreSQL in whichever process runs it
 * (a NOTIFY, sent when this is awaited: after the change committed). A failed NOTIFY is logged: the pass then comes at its
 * interval.
 */
export async function wakePurgeLoop(lease: TLease): Promise<void> {
  const loop = loops.get(lease.name);
  if (loop && !loop.stopped) wake(loop);
  if ((await dbKind()) !== 'postgres') return;
  await driverRows('select pg_notify($1, $2)', [WAKE_CHANNEL, `${lease.name} ${PROCESS}`]).catch((err: Error) =>
    console.warn(`${lease.name}: other processes not told of the change (their pass comes at its interval): ${err.message}`),
  );
}
