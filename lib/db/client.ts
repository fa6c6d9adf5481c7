import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import type pgModule from 'pg';
import { env } from '@/lib/env';
import { guardDiskSpace } from './disk-guard';
import { checkSpaceToStart, diskFullCause } from './disk-space';
import { acquireDataDirLock, releaseDataDirLock } from './lock';
import { preparedQueries } from './pglite-prepared';
import { keepFilesPrivate, makePrivateFolder, tightenTree } from './private-files';
import { quietQueryErrors } from './quiet-query-errors';
import * as schema from './schema';
import { noteStoreAnswered, noteStoreError } from './store-availability';
import { processSingleton } from '@/lib/process-singleton';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; every query helper accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

type TUnlisten = () => Promise<void>;
/** A NOTIFY's payload; undefined when the listening connection was made again (anything may have been missed). */
type TOnNotify = (payload?: string) => void;
type TPg = typeof pgModule;
type Handle = {
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

// One instance per process, shared by route bundles, instrumentation and hot reloads.
const globalForDb = processSingleton('db', (): { db?: Promise<Handle> } => ({}));
quietQueryErrors();

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'lib/db/migrations');

const BYTEA_OID = 17;

/**
 * bytea as PGlite sends and reads it (hex text), by Buffer's native codec: PGlite's own maps and
 * joins every byte as a string, which was the largest single cost of storing a 2 KiB receipt.
 */
const pgliteBytea = {
  serializers: {
    [BYTEA_OID]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

async function openPglite(dataDir: string): Promise<Handle> {
  const dir = path.resolve(dataDir);
  makePrivateFolder(dir);
  try {
    acquireDataDirLock(dir);
  } catch (err) {
    throw diskFullCause(err, dir) ?? err;
  }
  const pglite = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: PGlite;
  let db;
  let named: { query: ReturnType<typeof preparedQueries> };
  try {
    checkSpaceToStart(dir); // PGlite on a full disk aborts with no word of why
    client = new pglite.PGlite(path.join(dir, 'pg'), pgliteBytea);
    await client.waitReady;
    tightenTree(dir); // what PGlite made as it opened, whatever the umask (private-files.ts)
    named = { query: preparedQueries(client, pglite) };
    const guard = guardDiskSpace(client, dir); // before observe: its refusals are noted as the store being unavailable
    guard(named);
    observe(client, ['query', 'exec']); // a transaction's statements fail through toProblem, which notes them too
    observe(named, ['query']);
    db = drizzle({ client, schema, casing: 'snake_case' });
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (err) {
    releaseDataDirLock(dir);
    throw diskFullCause(err, dir) ?? err;
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    listen: (channel, onNotify) => client.listen(channel, (payload) => onNotify(payload)),
    query: async <T>(text: string, params: unknown[], name?: string) => (name ? named.query<T>(text, params, name) : (await client.query<T>(text, params)).rows),
    close: async () => {
      await client.close();
      releaseDataDirLock(dir);
    },
    abandon: () => releaseDataDirLock(dir),
    embedded: { client, dir },
  };
}

async function openPostgres(url: string): Promise<Handle> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10, ...CONNECTION_OPTIONS });
  // A connection the server ends (a restart, an admin's pg_terminate_backend, a network cut) emits
  // 'error': on an idle one the pool's listener drops it and re-emits it here; on one checked out
  // (a transaction) only its own listener hears it. Unheard, either would end the process.
  pool.on('error', (err) => noteStoreError(err));
  pool.on('connect', (client) => {
    client.on('error', (err) => noteStoreError(err));
    noteStoreAnswered();
  });
  observe(pool, ['query', 'connect']);
  const db = drizzle({ client: pool, schema, casing: 'snake_case' });
  // Several instances may start at once: one migrates, the others wait for it.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock(727274)');
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query('select pg_advisory_unlock(727274)').catch(() => {});
    lockClient.release();
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    listen: (channel, onNotify) => listenPostgres(pg, url, channel, onNotify),
    query: async <T>(text: string, params: unknown[], name?: string) => (await (name ? pool.query({ name, text, values: params }) : pool.query(text, params))).rows as T[],
    close: () => pool.end(),
    abandon: () => {},
  };
}

// A store that does not answer a connection within 5 s is taken as down (the request gets a 503)
// rather than holding the request; TCP keep-alive finds a dead peer of an idle connection.
const CONNECTION_OPTIONS = { connectionTimeoutMillis: 5000, keepAlive: true };

type TObservable = Record<string, unknown>;

/**
 * Wraps the driver's entry points so every failure that means "the store is unavailable" and every
 * answer after one reaches store-availability.ts (one log line per change, readiness, 503s).
 */
function observe(target: object, methods: string[]): void {
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

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). A lost
 * connection is made again after a second, and `onNotify` is called then too: a NOTIFY sent while
 * it was down would otherwise be missed.
 */
async function listenPostgres(pg: TPg, url: string, channel: string, onNotify: TOnNotify): Promise<TUnlisten> {
  let client: InstanceType<TPg['Client']> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = (): void => {
    if (!stopped) retry = setTimeout(() => void connect().then(() => onNotify(), reconnect), 1000);
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: listenerName(channel), ...CONNECTION_OPTIONS });
    c.on('notification', (n) => n.channel === channel && onNotify(n.payload));
    c.on('error', (err) => {
      noteStoreError(err);
      c.end().catch(() => {});
      if (client === c) {
        client = null;
        reconnect();
      }
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    if (stopped) await c.end();
    else client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

async function open(): Promise<Handle> {
  keepFilesPrivate();
  const h = await (env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openPglite(env.DATA_DIR));
  opened.handle = h;
  return h;
}

function handle(): Promise<Handle> {
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
  return (await handle()).db;
}

export async function dbKind(): Promise<Handle['kind']> {
  return (await handle()).kind;
}

/** The embedded store's PGlite client and DATA_DIR, opened by this process; null on PostgreSQL. */
export async function embeddedStore(): Promise<TEmbedded | null> {
  return (await handle()).embedded ?? null;
}

/** This process's LISTENs in place, by channel (lib/db/listeners.ts asks on the embedded store). */
const listens = processSingleton('db-listens', () => new Map<string, number>());

/** Calls `onNotify` whenever a transaction that ran `select pg_notify(channel, …)` commits, in any process. */
export async function listenDb(channel: string, onNotify: TOnNotify): Promise<TUnlisten> {
  const unlisten = await (await handle()).listen(channel, onNotify);
  listens.set(channel, (listens.get(channel) ?? 0) + 1);
  let done = false;
  return async () => {
    if (!done) listens.set(channel, (listens.get(channel) ?? 1) - 1);
    done = true;
    await unlisten();
  };
}

/** How many LISTENs this process has in place on `channel`. */
export function localListens(channel: string): number {
  return listens.get(channel) ?? 0;
}

/** The application_name of a connection that LISTENs on `channel`: how other processes see that someone listens. */
export const listenerName = (channel: string) => `gc-listen:${channel}`;

// The handle once opened, for abandonDb (which cannot wait).
const opened = processSingleton('db-opened', (): { handle?: Handle } => ({}));

/** For a process exiting at once: releases what another process would otherwise wait for (the embedded store's lock). */
export function abandonDb(): void {
  opened.handle?.abandon();
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.db;
  globalForDb.db = undefined;
  if (h) await (await h).close();
}

/**
 * Rows of a statement sent to the driver as text and parameters, bypassing drizzle's builder (hot
 * paths only). A `name` makes it a prepared statement (on either store): one fixed text per name.
 */
export async function driverRows<T>(text: string, params: unknown[], name?: string): Promise<T[]> {
  return (await handle()).query<T>(text, params, name);
}

/** Rows of a raw SQL statement, the same on PGlite and node-postgres. */
export async function queryRows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
