import { getDb } from '@/lib/db/client';
import { listenDb } from '@/lib/db/listen';
import { env } from '@/lib/env';
import { dropProcessSingleton, existingProcessSingleton, processSingleton } from '@/lib/process-singleton';
import { dropHeartbeat, heartbeat } from '@/lib/readiness/heartbeats';
import { claimDeliveries, releaseClaim, renewLeases } from './claim';
import { admitSend, restampSend } from './admit-send';
import { attemptDelivery } from './attempt-delivery';
import { abandonClaim, recordScheduledAttempt } from './record-scheduled-attempts';
import { DELIVERIES_CHANNEL } from './enqueue';
import { runWorker, type TStats, type TWorkerConfig, type TWorkerDeps } from './worker';
import { IDLE_POLL_MAX_MS } from './worker-state';

// This process's delivery worker (the web process's, or `npm run worker`'s): the loop of worker.ts
// on the process's database, the undici pool and the LISTEN connection, configured from the env.

const HEARTBEAT = 'delivery worker';
/**
 * While its slots send, the worker claims at most this often (worker.ts): under a stream of grants
 * each commit wakes it, and one claim per commit was a tenth of a grant's CPU (issue 42). An idle
 * worker claims at once, so a lone grant is not held back.
 */
const CLAIM_GATHER_MS = 25;

/** How long the loop may go without a turn before readiness fails: its longest idle poll, a couple more and a slow claim. */
function maxSilenceMs(config: TWorkerConfig): number {
  return Math.max(config.fallbackPollMs, IDLE_POLL_MAX_MS) + 2 * config.fallbackPollMs + 10_000;
}

/** The production dependencies: the process's database and the undici pool. */
function databaseDeps(log: (line: string) => void, tick: () => void): TWorkerDeps {
  return {
    tick,
    claim: (limit, owner, skip) => claimDeliveries({ owner, limit, leaseMs: env.DELIVERY_LEASE_MS, skip }),
    admit: (claim, rateLimit) => admitSend(claim, rateLimit),
    restamp: restampSend,
    send: attemptDelivery,
    record: recordScheduledAttempt,
    abandon: abandonClaim,
    release: async (claim) => releaseClaim(await getDb(), claim),
    renew: (claims) => renewLeases(claims, env.DELIVERY_LEASE_MS),
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
    gatherMs: CLAIM_GATHER_MS,
  };
}

type TRunning = Awaited<ReturnType<typeof runWorker>>;
const KEY = 'delivery-worker';

/** Starts this process's worker (once; a second call returns the same one's id). */
export async function startWorker({ log = (line: string) => console.error(line) }: { log?: (line: string) => void } = {}): Promise<string> {
  const running = await processSingleton<Promise<TRunning>>(KEY, () => {
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
