import os from 'node:os';
import { describeForLog } from '@/lib/http/log-error';
import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { randomString } from '@/lib/ids';
import { claimDeliveries } from './claim';
import { attemptTimeoutMs, deliverClaim } from './deliver';

// The delivery poller: a self-rescheduling setTimeout (with jitter, so workers started together
// drift apart) that never overlaps itself, keeps up to DELIVERY_CONCURRENCY deliveries in flight,
// and polls again at once when a full batch hints at more work.

type TWorker = {
  id: string;
  stopping: boolean;
  ticking: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  wakeAfterTick: boolean;
  moreWork: boolean;
  inFlight: Set<Promise<void>>;
  stats: { attempts: number; delivered: number; failed: number; abandoned: number; errors: number };
  log: (line: string) => void;
};

const globalForWorker = globalThis as unknown as { __gcWorker?: TWorker };

const jittered = (ms: number) => Math.round(ms * (0.8 + 0.4 * Math.random()));

function schedule(w: TWorker, ms: number): void {
  if (w.stopping) return;
  if (w.timer) clearTimeout(w.timer);
  w.timer = setTimeout(() => {
    w.timer = null;
    w.ticking = tick(w).finally(() => {
      w.ticking = null;
      const now = w.wakeAfterTick || (w.moreWork && w.inFlight.size < env.DELIVERY_CONCURRENCY);
      w.wakeAfterTick = false;
      schedule(w, now ? 0 : jittered(env.DELIVERY_POLL_MS));
    });
  }, ms);
}

/** Poll now (a slot freed up while there is more work), unless a poll is running: then right after it. */
function wake(w: TWorker): void {
  if (w.stopping) return;
  if (w.ticking) w.wakeAfterTick = true;
  else schedule(w, 0);
}

async function tick(w: TWorker): Promise<void> {
  const free = env.DELIVERY_CONCURRENCY - w.inFlight.size;
  if (free <= 0) return;
  try {
    const claims = await claimDeliveries(await getDb(), { owner: `${w.id}:${randomString(8)}`, limit: free, leaseMs: env.DELIVERY_LEASE_MS });
    w.moreWork = claims.length === free;
    for (const claim of claims) {
      const job: Promise<void> = deliverClaim(claim)
        .then((outcome) => {
          if (outcome === 'abandoned') w.stats.abandoned++;
          else {
            w.stats.attempts++;
            if (outcome === 'success') w.stats.delivered++;
            else w.stats.failed++;
          }
        })
        .catch((err) => {
          // The lease runs out and another poll retries it: at least once, never lost.
          w.stats.errors++;
          w.log(`[worker] delivery ${claim.messageId} → ${claim.webhookId} could not be recorded: ${describeForLog(err)}`);
        })
        .finally(() => {
          w.inFlight.delete(job);
          if (w.moreWork) wake(w);
        });
      w.inFlight.add(job);
    }
  } catch (err) {
    w.stats.errors++;
    w.log(`[worker] claiming deliveries failed: ${describeForLog(err)}`);
  }
}

/** Starts this process's worker (once; a second call is a no-op). */
export function startWorker({ log = (line: string) => console.error(line) }: { log?: (line: string) => void } = {}): string {
  if (globalForWorker.__gcWorker) return globalForWorker.__gcWorker.id;
  const w: TWorker = {
    id: `${os.hostname()}:${process.pid}:${randomString(6)}`,
    stopping: false,
    ticking: null,
    timer: null,
    wakeAfterTick: false,
    moreWork: false,
    inFlight: new Set(),
    stats: { attempts: 0, delivered: 0, failed: 0, abandoned: 0, errors: 0 },
    log,
  };
  globalForWorker.__gcWorker = w;
  if (attemptTimeoutMs() < env.DELIVERY_TIMEOUT_MS) {
    log(`[worker] DELIVERY_LEASE_MS (${env.DELIVERY_LEASE_MS}) is short for DELIVERY_TIMEOUT_MS (${env.DELIVERY_TIMEOUT_MS}); attempts time out after ${attemptTimeoutMs()} ms`);
  }
  schedule(w, 0);
  return w.id;
}

export function workerStats(): TWorker['stats'] | null {
  return globalForWorker.__gcWorker ? { ...globalForWorker.__gcWorker.stats } : null;
}

/**
 * Stops polling and waits up to `graceMs` for deliveries in flight to be recorded; returns the counts. Any still
 * running after that keep their lease, which expires, and are attempted again by a live worker.
 */
export async function stopWorker({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<TWorker['stats'] | null> {
  const w = globalForWorker.__gcWorker;
  if (!w) return null;
  w.stopping = true;
  if (w.timer) clearTimeout(w.timer);
  w.timer = null;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.allSettled([w.ticking, ...w.inFlight]), grace]);
  clearTimeout(timer);
  globalForWorker.__gcWorker = undefined;
  return { ...w.stats };
}
