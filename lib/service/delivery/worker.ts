import os from 'node:os';
import { isStoreUnavailable } from '@/lib/db/store-availability';
import { describeForLog } from '@/lib/http/log-error';
import { randomString } from '@/lib/ids';
import type { TDeliveryJob } from './claim';
import {
  fullWebhooks,
  heldShare,
  endpointShare,
  idlePollMs,
  noteClaim,
  room,
  shouldClaim,
  type TJobOutcome,
  type TStats,
  type TWorker,
  type TWorkerConfig,
  type TWorkerDeps,
} from './worker-state';
import { backoffMs } from './backoff';
import { EndpointSlots } from './endpoint-slots';
import { LeaseKeeper } from './lease-keeper';
import { runJob } from './run-job';
import { SendLateness } from './send-lateness';
import { Wakeup } from './wakeup';

// The delivery worker: one loop — claim a batch → send → record → wait for a wake-up or the next
// due time. It claims ahead: a batch is kept leased in memory (`ready`) while the one before it is
// sent, and a slot that frees up takes its next job from there at once, so claims are larger and
// overlap the sending instead of a free slot waiting on one. A commit that queues deliveries wakes
// it (NOTIFY, from this process or any other): at once when idle; while slots send, a claim comes
// at most every `gatherMs`, so the grants committed meanwhile are claimed together, not one claim
// per commit. The ready batch running low wakes it while there is more work; otherwise it sleeps
// until the next retry or lease expiry falls due, polling every DELIVERY_POLL_MS, or less often while
// claims find nothing and a LISTEN is in place (idlePollMs: up to every 30 s). A slot is
// held while a request is in flight, not while its outcome is committed, nor while the job waits
// for its endpoint: a ready job whose endpoint is at its share (worker-state.ts: its limit, at most
// half the slots) stays ready while the next one whose endpoint has room goes first, and a webhook
// holding twice its share here is left out of the claims until one of its jobs is sent. So a slow
// webhook's backlog takes neither every slot nor every claim: another webhook's fresh delivery goes
// out beside it, not behind it, in each worker process (issue 53.3). Outcomes are recorded in
// batches behind the sending (at most 4 × concurrency waiting, ready ones included). A job that
// waited for a slot until half its lease was spent is given back, as is every ready one when the
// worker stops; a started one's lease is kept alive until its outcome is written (lease-keeper.ts).
// While the database is unavailable it backs off (claims and outcomes are tried again, not logged
// each time) and resumes when it answers. Its dependencies (database, HTTP, notifications) are
// `TWorkerDeps` (process-worker.ts wires the real ones): the loop is the schedule alone; one job's
// admission, send and outcome are run-job.ts's.

export type { TJobOutcome, TStats, TWorkerConfig, TWorkerDeps };

function start(w: TWorker, job: TDeliveryJob, claimedAt: number): void {
  let holding = true;
  const webhook = job.claim.webhookId;
  const sent = () => {
    if (!holding) return;
    holding = false;
    w.busy--;
    const held = w.held.get(webhook) ?? 1;
    if (held <= 1) w.held.delete(webhook);
    else w.held.set(webhook, held - 1);
    if (held === heldShare(w.config)) w.wakeup.notify(); // the claims left it out: it has room again
    pump(w);
    wakeIfRoom(w);
  };
  w.busy++;
  w.leases.hold(job.claim, claimedAt);
  const p: Promise<void> = runJob(w, job, claimedAt, sent)
    .then((outcome) => {
      if (outcome === 'abandoned') w.stats.abandoned++;
      else if (outcome === 'released') w.stats.released++;
      else if (outcome === 'deferred') {
        w.stats.deferred++;
        w.wakeup.notify(); // it is due when room opens: a claim says when
      } else {
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
      w.leases.drop(job.claim.id);
      if (holding) sent();
      else wakeIfRoom(w);
    });
  w.jobs.add(p);
}

/** Starts ready jobs while slots are free, oldest first, each once its endpoint has a slot: a full endpoint's wait behind the others. */
function pump(w: TWorker): void {
  for (let i = 0; !w.stopping && w.busy < w.config.concurrency && i < w.ready.length;) {
    const { job, claimedAt } = w.ready[i];
    if (job.target && !w.slots.tryAcquire(job.target.url)) {
      i++;
      continue;
    }
    w.ready.splice(i, 1);
    start(w, job, claimedAt);
  }
}

/** Gives every ready job back, unattempted (the worker is stopping). */
function releaseReady(w: TWorker): void {
  for (const { job } of w.ready.splice(0)) {
    const p: Promise<void> = w.deps
      .release(job.claim)
      .then(() => void w.stats.released++)
      .catch(() => void w.stats.errors++) // its lease runs out and a worker takes it then
      .finally(() => w.jobs.delete(p));
    w.jobs.add(p);
  }
}

function wakeIfRoom(w: TWorker): void {
  if (!w.saturated) return;
  const full = fullWebhooks(w);
  if (shouldClaim(w, room(w, full), full)) w.wakeup.notify();
}

async function loop(w: TWorker): Promise<void> {
  let failures = 0;
  let backedOff = false; // the last sleep ended at a poll longer than DELIVERY_POLL_MS
  while (!w.stopping) {
    w.deps.tick?.();
    pump(w);
    let full = fullWebhooks(w);
    let n = room(w, full);
    let claiming = shouldClaim(w, n, full);
    const gather = w.lastClaim.at + (w.config.gatherMs ?? 0) - Date.now();
    if (claiming && gather > 0 && w.busy > 0 && w.lastClaim.drained) {
      await new Promise((r) => setTimeout(r, gather));
      pump(w);
      full = fullWebhooks(w);
      n = room(w, full);
      claiming = !w.stopping && shouldClaim(w, n, full);
    }
    let claimed = 0;
    let dueIn: number | null = null;
    if (claiming) {
      try {
        const claimedAt = Date.now();
        const batch = await w.deps.claim(n, `${w.id}:${randomString(8)}`, full);
        failures = 0;
        claimed = batch.jobs.length;
        dueIn = batch.nextDueInMs;
        w.lastClaim = { at: claimedAt, drained: claimed < n };
        noteClaim(w, claimed, backedOff);
        for (const job of batch.jobs) {
          w.ready.push({ job, claimedAt });
          w.held.set(job.claim.webhookId, (w.held.get(job.claim.webhookId) ?? 0) + 1);
        }
        if (w.stopping) releaseReady(w);
        pump(w);
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
    // It took all it asked for, or did not ask (no room, or enough ready): more may be due, so the
    // ready batch running low wakes the loop.
    w.saturated = !claiming || claimed === n;
    // Otherwise nothing more is due now: sleep until woken, the next due time, or the poll (longer while idle).
    const poll = idlePollMs(w.config, w.emptyClaims, w.steadyPoll);
    const notified = await w.wakeup.wait(w.saturated ? w.config.fallbackPollMs : Math.min(dueIn ?? Infinity, poll));
    backedOff = !notified && !w.saturated && poll > w.config.fallbackPollMs && (dueIn === null || dueIn > poll);
  }
}

/** Starts a worker on `deps` (the database, HTTP and notifications; tests pass their own); stop it with the returned function, which waits up to `graceMs` for deliveries in flight. */
export async function runWorker(
  deps: TWorkerDeps,
  config: TWorkerConfig,
): Promise<{ id: string; stop: (graceMs: number) => Promise<TStats>; stats: () => TStats }> {
  const w: TWorker = {
    id: `${os.hostname()}:${process.pid}:${randomString(6)}`,
    deps,
    config,
    stopping: false,
    wakeup: new Wakeup(),
    slots: new EndpointSlots(endpointShare(config)),
    leases: new LeaseKeeper(config.leaseMs, deps.renew, deps.log),
    lateness: new SendLateness(),
    admitting: new Map(),
    ready: [],
    jobs: new Set(),
    busy: 0,
    held: new Map(),
    saturated: false,
    lastClaim: { at: 0, drained: false },
    emptyClaims: 0,
    steadyPoll: false,
    stats: { attempts: 0, delivered: 0, failed: 0, abandoned: 0, released: 0, deferred: 0, errors: 0 },
    loop: null,
    unlisten: null,
  };
  try {
    w.unlisten = await deps.listen(() => w.wakeup.notify());
  } catch (err) {
    w.steadyPoll = true;
    deps.log(`[worker] cannot listen for new deliveries (${describeForLog(err)}); polling every ${config.fallbackPollMs} ms instead`);
  }
  w.loop = loop(w);
  const stop = async (graceMs: number): Promise<TStats> => {
    w.stopping = true;
    releaseReady(w);
    w.wakeup.notify();
    await w.unlisten?.().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    // The loop first: a claim it has out may still give back what it took.
    const settled = (async () => {
      await w.loop;
      await Promise.allSettled([...w.jobs]);
    })();
    await Promise.race([settled, grace]);
    clearTimeout(timer);
    w.leases.stop(); // what is still in flight keeps its lease until it runs out: a live worker takes it then
    return { ...w.stats };
  };
  return { id: w.id, stop, stats: () => ({ ...w.stats }) };
}
