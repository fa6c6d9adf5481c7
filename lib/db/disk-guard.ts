import type { PGlite, Transaction } from '@electric-sql/pglite';
import { formatBytes, freeBytes, RESUME_FREE, WRITE_RESERVE } from './disk-space';
import { setStoreRecoveryCheck } from './store-availability';

// Keeps the embedded store from ever meeting a full disk. PGlite is PostgreSQL in one process with
// no postmaster to restart it: a write the disk refuses inside a critical section (a new 16 MiB WAL
// segment at a commit, a checkpoint) is a PANIC, and PGlite's WASM then never returns — seen as the
// process at 100 % CPU in errfinish, even /api/health unanswered, until it is killed. So the space
// is looked at before a statement reaches the store: a statement that may write is refused while
// the disk holding DATA_DIR has less than WRITE_RESERVE free (plus three times what the statement
// carries: its WAL, its heap and TOAST, slack), with SQLSTATE 53100 as PostgreSQL's own "disk full",
// which store-availability turns into one log line and 503 + Retry-After. Reads go through. Once
// refused, writes resume when RESUME_FREE is free (not at the first byte back: no flapping), and the
// store counts as available again only then, not when a read answers meanwhile.

export class StoreDiskFullError extends Error {
  readonly code = '53100'; // SQLSTATE disk_full
  constructor(dir: string, free: number, needed: number) {
    super(
      `the disk holding ${dir} has ${formatBytes(free)} free, less than the ${formatBytes(needed)} a write needs there (the embedded store keeps ${formatBytes(WRITE_RESERVE)} in reserve); writes wait until there is more`,
    );
    this.name = 'StoreDiskFullError';
  }
}

type TGuard = { dir: string; low: boolean };

/** A statement that only reads: SELECT (WITH …) / SHOW / EXPLAIN without a row lock or a sequence step. */
const READ = /^\s*(select|with|show|explain)\b/i;
const WRITES_ANYWAY = /\b(for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|nextval|setval|pg_advisory\w*|insert|update|delete|into)\b/i;
export const isReadOnly = (text: string) => READ.test(text) && !WRITES_ANYWAY.test(text);

function paramBytes(params: unknown): number {
  if (!Array.isArray(params)) return 0;
  let n = 0;
  for (const p of params) n += typeof p === 'string' ? p.length : p instanceof Uint8Array ? p.byteLength * 2 : 16; // bytea goes as hex text
  return n;
}

/** Throws StoreDiskFullError when a statement of `text` carrying `params` may not write now. A look at the free space costs ~2 µs: every write looks. */
function check(g: TGuard, text: string, params?: unknown): void {
  if (isReadOnly(text)) return;
  const free = freeBytes(g.dir);
  if (free === null) return; // the OS does not say: PostgreSQL's own errors remain
  const needed = (g.low ? RESUME_FREE : WRITE_RESERVE) + 3 * (text.length + paramBytes(params));
  if (free >= needed) {
    g.low = false;
    return;
  }
  g.low = true;
  throw new StoreDiskFullError(g.dir, free, needed);
}

/** A client, a transaction, or another entry point taking (text, params) first, as PGlite's `query` does. */
type TQuerying = Pick<PGlite, 'query' | 'exec'> | Transaction | { query: (text: string, params: unknown[], ...rest: never[]) => Promise<unknown> };

function guardStatements(target: TQuerying, g: TGuard): void {
  const t = target as unknown as Partial<Record<'query' | 'exec', (...args: unknown[]) => Promise<unknown>>>;
  for (const method of ['query', 'exec'] as const) {
    const original = t[method];
    if (!original) continue;
    // A refusal is a rejected promise, as a failed statement is (the availability observer chains on it).
    t[method] = function (this: unknown, ...args: unknown[]) {
      try {
        check(g, String(args[0]), method === 'query' ? args[1] : undefined);
      } catch (err) {
        return Promise.reject(err);
      }
      return original.apply(this, args);
    };
  }
}

/**
 * Installs the guard on `client` (the embedded store in `dir`): its query, exec and the statements
 * of its transactions; the function returned guards another entry point to it (lib/db/pglite-prepared.ts's).
 * Install it before the availability observer wraps the client, so refusals are noted.
 */
export function guardDiskSpace(client: PGlite, dir: string): (other: TQuerying) => void {
  const g: TGuard = { dir, low: false };
  guardStatements(client, g);
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(fn: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      guardStatements(tx, g);
      return fn(tx);
    });
  // A read answered while writes are refused does not mean the store is back.
  setStoreRecoveryCheck(() => {
    if (!g.low) return true;
    const free = freeBytes(g.dir);
    return free === null || free >= RESUME_FREE;
  });
  return (other) => guardStatements(other, g);
}
