import { env } from '@/lib/env';
import { keepFilesPrivate } from './private-files';
import { quietQueryErrors } from './quiet-query-errors';
import { processSingleton } from '@/lib/process-singleton';
import type { Db, TEmbedded, THandle } from './drivers/handle';
import { openPglite } from './drivers/pglite';
import { openPostgres } from './drivers/postgres';

// The process's one database: the embedded store in DATA_DIR, or PostgreSQL when DATABASE_URL is
// set (lib/db/drivers/), opened and migrated on first use and shared by route bundles,
// instrumentation and hot reloads. LISTEN is lib/db/listen.ts, raw statements lib/db/query.ts.

export type { Db, DbOrTx, TEmbedded, Tx } from './drivers/handle';

const globalForDb = processSingleton('db', (): { db?: Promise<THandle> } => ({}));
quietQueryErrors();

async function open(): Promise<THandle> {
  keepFilesPrivate();
  const h = await (env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openPglite(env.DATA_DIR));
  opened.handle = h;
  return h;
}

/** The opened store (its driver's LISTEN and statements: lib/db/listen.ts, lib/db/query.ts). */
export function storeHandle(): Promise<THandle> {
  if (!globalForDb.db) {
    globalForDb.db = open().catch((err) => {
      globalForDb.db = undefined;
      throw err;
    });
  }
  return globalForDb.db;
}

/** The database, opened and migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await storeHandle()).db;
}

export async function dbKind(): Promise<THandle['kind']> {
  return (await storeHandle()).kind;
}

/** The embedded store's PGlite client and DATA_DIR, opened by this process; null on PostgreSQL. */
export async function embeddedStore(): Promise<TEmbedded | null> {
  return (await storeHandle()).embedded ?? null;
}

// The handle once opened, for abandonDb (which cannot wait).
const opened = processSingleton('db-opened', (): { handle?: THandle } => ({}));

/** For a process exiting at once: releases what another process would otherwise wait for (the embedded store's lock). */
export function abandonDb(): void {
  opened.handle?.abandon();
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.db;
  globalForDb.db = undefined;
  if (h) await (await h).close();
}
