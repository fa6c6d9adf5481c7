import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import type * as schema from '../schema';
import { noteStoreAnswered, noteStoreError } from '../store-availability';

// What each driver (pglite.ts, postgres.ts) opens for lib/db/client.ts: the drizzle database, the
// driver's own LISTEN and prepared statements, and how to close or abandon it; and the observer that
// tells store-availability.ts of every failure and answer.

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; every query helper accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type TUnlisten = () => Promise<void>;
/** A NOTIFY's payload; undefined when the listening connection was made again (anything may have been missed). */
export type TOnNotify = (payload?: string) => void;
export type THandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Calls `onNotify` for each NOTIFY on `channel` (delivered when the notifying transaction commits), with its payload. */
  listen: (channel: string, onNotify: TOnNotify) => Promise<TUnlisten>;
  /**
   * A parameterised statement straight to the driver ($1, $2, …), for the few hot paths where building it costs more than running it.
   * `name`: prepared once per connection (parsed and planned once, not per call; on PGlite by lib/db/pglite-prepared.ts).
   */
  query: <T>(text: string, params: unknown[], name?: string) => Promise<T[]>;
  close: () => Promise<void>;
  /** Gives up the store without closing it, for a process about to exit at once: the embedded store's lock is released. */
  abandon: () => void;
  /** The embedded store's client and directory (backups: lib/db/backup/). */
  embedded?: TEmbedded;
};
export type TEmbedded = { client: PGlite; dir: string };

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'lib/db/migrations');

type TObservable = Record<string, unknown>;

/**
 * Wraps the driver's entry points so every failure that means "the store is unavailable" and every
 * answer after one reaches store-availability.ts (one log line per change, readiness, 503s).
 */
export function observe(target: object, methods: string[]): void {
  const t = target as TObservable;
  for (const name of methods) {
    const original = t[name] as (...args: unknown[]) => unknown;
    t[name] = function (this: unknown, ...args: unknown[]) {
      // The callback forms (pg-pool calls its own connect with one) pass through; the promise forms are observed.
      if (typeof args.at(-1) === 'function') return original.apply(this, args);
      const startedAt = Date.now();
      return (original.apply(this, args) as Promise<unknown>).then(
        (result) => {
          noteStoreAnswered(startedAt);
          return result;
        },
        (err: unknown) => {
          noteStoreError(err);
          throw err;
        },
      );
    };
  }
}
