import os from 'node:os';
import { abandonDb, closeDb, dbKind, getDb } from '@/lib/db/client';
import { diskFullCause, DiskFullError } from '@/lib/db/disk-space';
import { DataDirLockedError } from '@/lib/db/lock';
import { env, parseEnv } from '@/lib/env';

// The one way a process of this app starts and stops, whether it serves the app (lib/boot.ts,
// through Next's instrumentation) or only delivers (scripts/worker.ts):
//   settings → database (migrated) → its parts → SIGTERM/SIGINT → each part stopped within
//   SHUTDOWN_GRACE_MS → database closed (within a second) → exit 0.
// A second SIGTERM/SIGINT, a second or more after the first, exits at once (the embedded store's
// lock released). The same signal twice at one instant is one request: a terminal's Ctrl-C reaches
// the whole process group, and `npm start` forwards it as well.
// A bad setting or an unusable database ends the process at once with one line saying why.

/** Something the process runs until it is told to stop (the delivery worker, …); `stop` resolves to null when it was not running. */
export type TProcessPart = { name: string; stop: (graceMs: number) => Promise<unknown> };

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Settings parsed and the database open (migrated), or exit 1. `lockedHint` is added when another process holds the embedded store. */
export async function openProcess({ lockedHint }: { lockedHint?: string } = {}): Promise<{ store: string }> {
  try {
    parseEnv();
  } catch (err) {
    fail((err as Error).message);
  }
  try {
    await getDb();
  } catch (err) {
    if (err instanceof DataDirLockedError) fail(lockedHint ? `${err.message}\n${lockedHint}` : err.message);
    if (err instanceof DiskFullError) fail(err.message);
    fail(`Could not open the database: ${(err as Error).message}`);
  }
  const store = (await dbKind()) === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)';
  return { store };
}

/**
 * Runs the first writes of a start (bootstrap rows): on the embedded store, a failure for want of
 * space ends the process with disk-space.ts's one sentence rather than a stack and a hung start.
 */
export async function firstWrites(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    const full = env.DATABASE_URL ? null : diskFullCause(err, env.DATA_DIR);
    if (!full) throw err;
    abandonDb();
    fail(full.message);
  }
}

const SAME_SIGNAL_MS = 1000;
const CLOSE_DB_MS = 1000;

/**
 * On the first SIGTERM or SIGINT: stops every part (in parallel, each within the grace period),
 * closes the database and exits 0; on a second one, exits at once. `onStop` reports each part's outcome.
 */
export function stopOnSignal(parts: TProcessPart[], { onStop }: { onStop?: (line: string) => void } = {}): void {
  let firstAt = 0;
  const stop = async (signal: string) => {
    onStop?.(`${signal}: stopping (up to ${env.SHUTDOWN_GRACE_MS} ms for work in flight; a second ${signal} stops at once)…`);
    await Promise.all(
      parts.map(async (part) => {
        const outcome = await part.stop(env.SHUTDOWN_GRACE_MS).catch((err: Error) => `failed: ${err.message}`);
        // null: the part was not running in this process.
        if (outcome !== null)
          onStop?.(`${part.name} stopped${outcome === undefined ? '' : `: ${typeof outcome === 'string' ? outcome : JSON.stringify(outcome)}`}`);
      }),
    );
    // Bounded: a pool whose server is gone may wait on connections that never answer.
    await Promise.race([closeDb().catch(() => {}), new Promise((r) => setTimeout(r, CLOSE_DB_MS).unref())]);
    process.exit(0);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!firstAt) {
      firstAt = Date.now();
      void stop(signal);
    } else if (Date.now() - firstAt >= SAME_SIGNAL_MS) {
      onStop?.(`${signal} again: stopping at once`);
      abandonDb();
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
