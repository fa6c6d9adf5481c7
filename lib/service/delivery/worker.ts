import os from 'node:os';
import { getDb, listenDb } from '@/lib/db/client';
import { isStoreUnavailable } from '@/lib/db/store-availability';
import { env } from '@/lib/env';
import { describeForLog } from '@/lib/http/log-error';
import { randomString } from '@/lib/ids';
import { dropProcessSingleton, existingProcessSingleton, processSingleton } from '@/lib/process-singleton';
import { dropHeartbeat, heartbeat } from '@/lib/readiness/heartbeats';
import { claimDeliveries, releaseClaim, type TClaim, type TClaimed, type TDeliveryJob } from './claim';
import { attemptDelivery, attemptTimeoutMs } from './deliver';
import { EndpointSlots } from './endpoint-slots';
import { abandonClaim, recordScheduledAttempt } from './record-scheduled-attempts';
import type { TSendResult } from './send-webhook';
import { DELIVERIES_CHANNEL, Wakeup } from './wakeup';

// The delivery worker: one loop — free slots → claim a batch → send → record → wait for a
// wake-up or the next due time. A commit that queues deliveries wakes it at once (NOTIFY, from
// this process or any other); a slot freeing up wakes it while there is more work; otherwise it
// sleeps until the next retry or lease expiry falls due, polling at most every DELIVERY_POLL_MS
// as a fallback. A slot is held while a request is in flight, not while its outcome is committed:
// outcomes are recorded in batches behind the sending (at most 4 × concurrency waiting), so the
// rate of sending is not tied to the store's commit latency. While the database is unavailable it
// backs off (claims and the outcomes of attempts in flight are tried again, not logged each time)
// and resumes when it answers; the LISTEN connection, made again, wakes it. Its dependencies (database, HTTP, notifications) are
// passed in as `TWorkerDeps`, so the loop reads as the schedule alone.

export type TOutcome = 'success' | 'failed' | 'abandoned' | 'released';

export type TWorkerDeps = {
  /** Due deliveries, each with what sending it takes (null target: its webhook is gone or disabled), and when the next falls due. */
  claim: (limit: number, owner: string) => Promise<TClaimed>;
  send: (job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }) => Promise<TSendResult>;
  record: (claim: TClaim, url: string, result: TSendResult) => Promise<void>;
  abandon: (claim: TClaim) => Promise<void>;
  release: (claim: TClaim) => Promise<void>;
  listen: (onWake: () => void) => Promise<() => Promise<void>>;
  log: (line: string) => void;
  /** Called on every turn of the loop (readiness: the loop is alive). */
  tick?: () => void;
};

export type TWorkerConfig = {
  concurrency: number;
  perEndpoint: number;
  fallbackPollMs: number;
  leaseMs: number;
};

type TStats = { attempts: number; delivered: number; failed: number; abandoned: number; released: number; errors: number };

type TWorker = {
  id: string;
  deps: TWorkerDeps;
  config: TWorkerConfig;
  stopping: boolean;
  wakeup: Wakeup;
  slots: EndpointSlots;
  /** Every job not yet finished: sending, or sent and its outcome not yet committed. */
  jobs: Set<Promise<void>>;
  /** Jobs holding one of the `concurrency` slots: claimed and not yet sent. */
  busy: number;
  /** The last claim took every free slot: more may be due as soon as one frees up. */
  saturated: boolean;
  stats: TStats;
  loop: Promise<void> | null;
  unlisten: (() => Promise<void>) | null;
};

const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;

/** The wait before try `n` (from 1) after the store was unavailable: doubling from 100 ms to 5 s, ±20 %. */
export function backoffMs(n: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, n - 1)) * (0.8 + Math.random() * 0.4);
}

/**
 * Records an attempt's outcome; while the store is unavailable, tries again (backing off) as long
 * as the lease is still this claim's, so the receiver is not sent the same message again only
 * because the outage outlasted one write.
 */
async function recordOutcome(w: TWorker, claim: TClaim, url: string, result: TSendResult, claimedAt: number): Promise<void> {
  for (let n = 1; ; n++) {
    try {
      return await w.deps.record(claim, url, result);
    } catch (err) {
      const wait = backoffMs(n);
      if (!isStoreUnavailable(err) || Date.now() + wait - claimedAt > w.config.leaseMs) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Sends one job within its endpoint's limit; a claim that waited so long its lease is half spent is
 * given back instead. `sent()` frees its slot as soon as the request is over: the outcome is
 * recorded after, batched with others (group commit), while the slot already takes the next job.
 */
async function runJob(w: TWorker, job: TDeliveryJob, claimedAt: number, sent: () => void): Promise<TOutcome> {
  if (!job.target) {
    await w.deps.abandon(job.claim);
    return 'abandoned';
  }
  const endpoint = job.target.url;
  let result: TSendResult;
  await w.slots.acquire(endpoint);
  try {
    if (Date.now() - claimedAt > w.config.leaseMs / 2 || w.stopping) {
      await w.deps.release(job.claim);
      return 'released';
    }
    result = await w.deps.send({ claim: job.claim, target: job.target });
  } finally {
    w.slots.release(endpoint); // the endpoint's limit is on requests in flight, not on our bookkeeping
  }
  sent();
  await recordOutcome(w, job.claim, endpoint, result, claimedAt);
  return result.ok ? 'success' : 'failed';
}

function start(w: TWorker, job: TDeliveryJob, claimedAt: number): void {
  let holding = true;
  const sent = () => {
    if (!holding) return;
    holding = false;
    w.busy--;
    wakeIfRoom(w);
  };
  w.busy++;
  const p: Promise<void> = runJob(w, job, claimedAt, sent)
    .then((outcome) => {
      if (outcome === 'abandoned') w.stats.abandoned++;
      else if (outcome === 'released') w.stats.released++;
      else {
        w.stats.attempts++;
        if (outcome === 'success') w.stats.delivered++;
        else {
          w.stats.failed++;
          w.wakeup.notify(); // a retry was scheduled: the next due time may be sooner than planned
        }
      }
    })
    .catch((err) => {
      // The lease runs out and a worker tries again: at least once, never lost.
      w.stats.errors++;
      w.deps.log(`[worker] delivery ${job.claim.messageId} → ${job.claim.webhookId} could not be recorded: ${describeForLog(err)}`);
    })
    .finally(() => {
      w.jobs.delete(p);
      if (holding) sent();
      else wakeIfRoom(w);
    });
  w.jobs.add(p);
}

/** Outcomes sent and not yet committed, at most: beyond it the worker claims nothing more until they are (a slow store holds back the sending). */
function maxUnrecorded(config: TWorkerConfig): number {
  return 4 * config.concurrency;
}

/** How many more jobs the worker may claim now: free slots, within the bound on outcomes waiting to be recorded. */
function room(w: TWorker): number {
  return Math.min(w.config.concurrency - w.busy, maxUnrecorded(w.config) - w.jobs.size);
}

function wakeIfRoom(w: TWorker): void {
  if (w.saturated && room(w) >= refillAt(w.config)) w.wakeup.notify();
}

/** A saturated worker claims again once this many slots are free: claims in batches, not one slot at a time. */
function refillAt(config: TWorkerConfig): number {
  return Math.max(1, Math.floor(config.concurrency / 8));
}

async function loop(w: TWorker): Promise<void> {
  let failures = 0;
  while (!w.stopping) {
    w.deps.tick?.();
    const free = room(w);
    let claimed = 0;
    let dueIn: number | null = null;
    if (free > 0) {
      try {
        const claimedAt = Date.now();
        const batch = await w.deps.claim(free, `${w.id}:${randomString(8)}`);
        failures = 0;
        claimed = batch.jobs.length;
        dueIn = batch.nextDueInMs;
        for (const job of batch.jobs) start(w, job, claimedAt);
      } catch (err) {
        w.stats.errors++;
        failures++;
        // An unavailable store is logged once by the database client, not on every try.
        if (!isStoreUnavailable(err)) w.deps.log(`[worker] claiming deliveries failed: ${describeForLog(err)}`);
        // Tried again sooner than the poll, backing off; a NOTIFY (the LISTEN connection is back) wakes it at once.
        await w.wakeup.wait(Math.min(backoffMs(failures), w.config.fallbackPollMs));
        continue;
      }
    }
    // Every slot busy, or every free one filled: more may be due, so slots freeing up wake the loop.
    w.saturated = claimed === free;
    // Otherwise nothing more is due now: sleep until woken, the next due time, or the fallback poll.
    await w.wakeup.wait(w.saturated ? w.config.fallbackPollMs : Math.min(dueIn ?? Infinity, w.config.fallbackPollMs));
  }
}

const HEARTBEAT = 'delivery worker';

/** How long the loop may go without a turn before readiness fails: a few polls and a slow claim. */
function maxSilenceMs(config: TWorkerConfig): number {
  return 3 * config.fallbackPollMs + 10_000;
}

/** The production dependencies: the process's database and the undici pool. */
function databaseDeps(log: (line: string) => void, tick: () => void): TWorkerDeps {
  return {
    tick,
    claim: async (limit, owner) => claimDeliveries(await getDb(), { owner, limit, leaseMs: env.DELIVERY_LEASE_MS }),
    send: attemptDelivery,
    record: recordScheduledAttempt,
    abandon: abandonClaim,
    release: async (claim) => releaseClaim(await getDb(), claim),
    listen: (onWake) => listenDb(DELIVERIES_CHANNEL, onWake),
    log,
  };
}

function configFromEnv(): TWorkerConfig {
  return {
    concurrency: env.DELIVERY_CONCURRENCY,
    perEndpoint: env.DELIVERY_ENDPOINT_CONCURRENCY,
    fallbackPollMs: env.DELIVERY_POLL_MS,
    leaseMs: env.DELIVERY_LEASE_MS,
  };
}

/** Starts a worker on `deps` (the database, HTTP and notifications; tests pass their own); stop it with the returned function, which waits up to `graceMs` for deliveries in flight. */
export async function runWorker(deps: TWorkerDeps, config: TWorkerConfig): Promise<{ id: string; stop: (graceMs: number) => Promise<TStats>; stats: () => TStats }> {
  const w: TWorker = {
    id: `${os.hostname()}:${process.pid}:${randomString(6)}`,
    deps,
    config,
    stopping: false,
    wakeup: new Wakeup(),
    slots: new EndpointSlots(config.perEndpoint),
    jobs: new Set(),
    busy: 0,
    saturated: false,
    stats: { attempts: 0, delivered: 0, failed: 0, abandoned: 0, released: 0, errors: 0 },
    loop: null,
    unlisten: null,
  };
  try {
    w.unlisten = await deps.listen(() => w.wakeup.notify());
  } catch (err) {
    deps.log(`[worker] cannot listen for new deliveries (${describeForLog(err)}); polling every ${config.fallbackPollMs} ms instead`);
  }
  w.loop = loop(w);
  const stop = async (graceMs: number): Promise<TStats> => {
    w.stopping = true;
    w.wakeup.notify();
    await w.unlisten?.().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([w.loop, ...w.jobs]), grace]);
    clearTimeout(timer);
    return { ...w.stats };
  };
  return { id: w.id, stop, stats: () => ({ ...w.stats }) };
}

type TRunning = Awaited<ReturnType<typeof runWorker>>;
const KEY = 'delivery-worker';

/** Starts this process's worker (once; a second call returns the same one's id). */
export async function startWorker({ log = (line: string) => console.error(line) }: { log?: (line: string) => void } = {}): Promise<string> {
  const running = await processSingleton<Promise<TRunning>>(KEY, () => {
    if (attemptTimeoutMs() < env.DELIVERY_TIMEOUT_MS) {
      log(`[worker] DELIVERY_LEASE_MS (${env.DELIVERY_LEASE_MS}) is short for DELIVERY_TIMEOUT_MS (${env.DELIVERY_TIMEOUT_MS}); attempts time out after ${attemptTimeoutMs()} ms`);
    }
    const config = configFromEnv();
    return runWorker(databaseDeps(log, heartbeat(HEARTBEAT, maxSilenceMs(config))), config);
  });
  return running.id;
}

/**
 * Stops this process's worker and waits up to `graceMs` for deliveries in flight to be recorded;
 * returns the counts. Any still running after that keep their lease, which expires, and are
 * attempted again by a live worker.
 */
export async function stopWorker({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<TStats | null> {
  const running = existingProcessSingleton<Promise<TRunning>>(KEY);
  if (!running) return null;
  dropProcessSingleton(KEY);
  dropHeartbeat(HEARTBEAT);
  return (await running).stop(graceMs);
}
