import { isStoreUnavailable } from '@/lib/db/store-availability';
import { underLease, type TLease } from '@/lib/db/take-lease';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { evaluateAlertRules } from './evaluate-rules';

// The alert evaluator's timer, beside the delivery worker in the same process runner (lib/boot.ts,
// scripts/worker.ts): every ALERT_EVAL_MS (±10 % jitter) it evaluates the rules, rescheduling itself
// only after a run ends, so runs never overlap. With several processes on one PostgreSQL the lease
// `alert-evaluation` makes it single-flight: one process evaluates, the others skip that turn (the
// embedded store has one process, so it takes none: two statements a run saved on an idle app).
// A run that fails because the database is unavailable is not logged (the database client says so
// once) and the next comes sooner, backing off up to the usual interval, so rules resume with it.

const LEASE: TLease = { table: 'console.leases', name: 'alert-evaluation' };
const LEASE_MS = 5 * 60_000; // longer than any evaluation; a holder that died frees it after this

type TLoop = { timer: NodeJS.Timeout | null; running: Promise<void> | null; stopped: boolean; failures: number };

const RETRY_MIN_MS = 1000;
const globalForLoop = processSingleton('alert-loop', (): { loop?: TLoop } => ({}));

async function runOnce(): Promise<void> {
  await underLease(LEASE, LEASE_MS, evaluateAlertRules);
}

function schedule(loop: TLoop): void {
  if (loop.stopped) return;
  const interval = loop.failures > 0 ? Math.min(env.ALERT_EVAL_MS, RETRY_MIN_MS * 2 ** (loop.failures - 1)) : env.ALERT_EVAL_MS;
  const delay = interval * (0.9 + Math.random() * 0.2);
  loop.timer = setTimeout(() => {
    loop.timer = null;
    loop.running = runOnce()
      .then(() => {
        loop.failures = 0;
      })
      .catch((err) => {
        if (!isStoreUnavailable(err)) return console.warn(`alert evaluation failed: ${(err as Error).message}`);
        loop.failures++;
      })
      .finally(() => {
        loop.running = null;
        schedule(loop);
      });
  }, delay);
  loop.timer.unref();
}

export function startAlertLoop(): void {
  if (globalForLoop.loop && !globalForLoop.loop.stopped) return;
  const loop: TLoop = { timer: null, running: null, stopped: false, failures: 0 };
  globalForLoop.loop = loop;
  schedule(loop);
}

/** Stops the timer and waits for a run in progress to end. */
export async function stopAlertLoop(): Promise<null | undefined> {
  const loop = globalForLoop.loop;
  if (!loop || loop.stopped) return null;
  loop.stopped = true;
  if (loop.timer) clearTimeout(loop.timer);
  await loop.running;
}
