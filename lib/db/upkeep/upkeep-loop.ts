import { randomUUID } from 'node:crypto';
import { processSingleton } from '@/lib/process-singleton';
import { dbKind, getDb } from '../client';
import { isStoreUnavailable } from '../store-availability';
import { releaseLease, takeLease, type TLease } from '../take-lease';
import { vacuumDue } from './vacuum-due';

// The store's upkeep, one loop per half (lib/service/retention, lib/console/retention) beside its purge:
// every UPKEEP_MS (±10 %) it runs the half's jobs — on the embedded store, VACUUM and ANALYZE of the
// half's tables that are due (vacuum-due.ts). On PostgreSQL a lease in the half's own schema makes
// it one process at a time; a PGlite directory is one process's already. A run never overlaps the
// next (it reschedules itself when it ends), and one that fails on an unavailable store is not logged.

/** Autovacuum's naptime: a minute; the check that finds nothing due is one statement over the catalog. */
export const UPKEEP_MS = 60_000;
const LEASE_MS = 10 * 60_000; // longer than any run; a holder that died frees it after this

export type TUpkeepSpec = {
  /** The lease, in the half's own leases table; its name names the loop and its log lines. */
  lease: TLease;
  /** The half's schema, whose tables the embedded store vacuums. */
  schema: 'service' | 'console';
};

type TLoop = { owner: string; timer: NodeJS.Timeout | null; running: Promise<void> | null; stopped: boolean; runs: number };
const loops = processSingleton('upkeep-loops', (): Map<string, TLoop> => new Map());

/** One run of the half's upkeep; `firstRun`: the process's first. */
async function runUpkeep(spec: TUpkeepSpec, owner: string, firstRun: boolean): Promise<void> {
  const leased = (await dbKind()) === 'postgres';
  if (leased) return; // vacuum is autovacuum's job there; no other job yet
  const db = await getDb();
  if (leased && !(await takeLease(db, spec.lease, owner, LEASE_MS))) return;
  try {
    await vacuumDue(spec.schema, firstRun);
  } finally {
    if (leased) await releaseLease(db, spec.lease, owner).catch(() => {});
  }
}

function schedule(spec: TUpkeepSpec, loop: TLoop): void {
  if (loop.stopped) return;
  loop.timer = setTimeout(
    () => {
      loop.timer = null;
      loop.running = runUpkeep(spec, loop.owner, loop.runs++ === 0)
        .catch((err: Error) => {
          if (!isStoreUnavailable(err)) console.warn(`${spec.lease.name}: ${err.message}`);
        })
        .finally(() => {
          loop.running = null;
          schedule(spec, loop);
        });
    },
    UPKEEP_MS * (0.9 + Math.random() * 0.2),
  );
  loop.timer.unref();
}

/** Starts the half's upkeep (once per process); it runs until stopUpkeep. */
export function startUpkeep(spec: TUpkeepSpec): void {
  const existing = loops.get(spec.lease.name);
  if (existing && !existing.stopped) return;
  const loop: TLoop = { owner: `${spec.lease.name}-${randomUUID()}`, timer: null, running: null, stopped: false, runs: 0 };
  loops.set(spec.lease.name, loop);
  schedule(spec, loop);
}

/** Stops the loop; a run under way finishes first. */
export async function stopUpkeep(lease: TLease): Promise<void> {
  const loop = loops.get(lease.name);
  if (!loop || loop.stopped) return;
  loop.stopped = true;
  if (loop.timer) clearTimeout(loop.timer);
  await loop.running;
}
