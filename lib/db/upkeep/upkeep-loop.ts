import { processSingleton } from '@/lib/process-singleton';
import { dbKind } from '../client';
import { partitionInterval } from '../partitions/interval';
import { ensurePartitions } from '../partitions/manage-partitions';
import { isStoreUnavailable } from '../store-availability';
import { type TLease } from '../take-lease';
import { vacuumDue } from './vacuum-due';

// The store's upkeep, one loop per half (lib/service/retention, lib/console/retention) beside its purge:
// every UPKEEP_MS (±10 %) it runs the half's jobs: its partitioned tables' partitions made a week
// ahead (lib/db/partitions, each table under its own lease on PostgreSQL), then, on the embedded
// store, VACUUM and ANALYZE of the half's tables that are due (vacuum-due.ts). A run never overlaps
// the next (it reschedules itself when it ends), and one that fails on an unavailable store is not logged.

/** Autovacuum's naptime: a minute; the check that finds nothing due is one statement over the catalog. */
export const UPKEEP_MS = 60_000;

export type TUpkeepSpec = {
  /** Names the loop and its log lines. */
  name: string;
  /** The half's schema, whose tables the embedded store vacuums. */
  schema: 'service' | 'console';
  /** The half's tables partitioned by time (`schema.table`), each with its lease in the half's own leases table. */
  partitioned: { table: string; lease: TLease }[];
  /** The half's tables partitioned otherwise (by id: console.receipts), each one's upkeep. */
  jobs?: (() => Promise<unknown>)[];
};

type TLoop = { timer: NodeJS.Timeout | null; running: Promise<void> | null; stopped: boolean; runs: number };
const loops = processSingleton('upkeep-loops', (): Map<string, TLoop> => new Map());

/** The half's partitions made ahead: by each run, and at a process's start before it writes (lib/boot.ts, scripts/worker.ts). */
export async function ensureUpkeepPartitions(spec: TUpkeepSpec): Promise<void> {
  const interval = partitionInterval(await dbKind());
  for (const p of spec.partitioned) await ensurePartitions({ ...p, interval });
  for (const job of spec.jobs ?? []) await job();
}

/** One run of the half's upkeep; `firstRun`: the process's first. */
async function runUpkeep(spec: TUpkeepSpec, firstRun: boolean): Promise<void> {
  await ensureUpkeepPartitions(spec);
  await vacuumDue(spec.schema, firstRun); // the embedded store's only: autovacuum's job on PostgreSQL
}

function schedule(spec: TUpkeepSpec, loop: TLoop): void {
  if (loop.stopped) return;
  loop.timer = setTimeout(
    () => {
      loop.timer = null;
      loop.running = runUpkeep(spec, loop.runs++ === 0)
        .catch((err: Error) => {
          if (!isStoreUnavailable(err)) console.warn(`${spec.name}: ${err.message}`);
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
  const existing = loops.get(spec.name);
  if (existing && !existing.stopped) return;
  const loop: TLoop = { timer: null, running: null, stopped: false, runs: 0 };
  loops.set(spec.name, loop);
  schedule(spec, loop);
}

/** Stops the loop; a run under way finishes first. */
export async function stopUpkeep(spec: TUpkeepSpec): Promise<void> {
  const loop = loops.get(spec.name);
  if (!loop || loop.stopped) return;
  loop.stopped = true;
  if (loop.timer) clearTimeout(loop.timer);
  await loop.running;
}
