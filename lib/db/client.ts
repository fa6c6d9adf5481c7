import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pgModule from 'pg';
import { env } from '@/lib/env';
import { acquireDataDirLock, releaseDataDirLock } from './lock';
import { quietQueryErrors } from './quiet-query-errors';
import * as schema from './schema';
import { processSingleton } from '@/lib/process-singleton';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; every query helper accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

type TUnlisten = () => Promise<void>;
type TPg = typeof pgModule;
type Handle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Calls `onNotify` for each NOTIFY on `channel` (delivered when the notifying transaction commits). */
  listen: (channel: string, onNotify: () => void) => Promise<TUnlisten>;
  /** A parameterised statement straight to the driver ($1, $2, …), for the few hot paths where building it costs more than running it. */
  query: <T>(text: string, params: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
};

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
  fs.mkdirSync(dir, { recursive: true });
  acquireDataDirLock(dir);
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite(path.join(dir, 'pg'), pgliteBytea);
  await client.waitReady;
  const db = drizzle({ client, schema, casing: 'snake_case' });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    listen: (channel, onNotify) => client.listen(channel, () => onNotify()),
    query: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
    close: async () => {
      await client.close();
      releaseDataDirLock(dir);
    },
  };
}

async function openPostgres(url: string): Promise<Handle> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
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
    query: async <T>(text: string, params: unknown[]) => (await pool.query(text, params)).rows as T[],
    close: () => pool.end(),
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). A lost
 * connection is made again after a second, and `onNotify` is called then too: a NOTIFY sent while
 * it was down would otherwise be missed.
 */
async function listenPostgres(pg: TPg, url: string, channel: string, onNotify: () => void): Promise<TUnlisten> {
  let client: InstanceType<TPg['Client']> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = (): void => {
    if (!stopped) retry = setTimeout(() => void connect().then(onNotify, reconnect), 1000);
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => n.channel === channel && onNotify());
    c.on('error', () => {
      c.end().catch(() => {});
      if (client === c) {
        client = null;
        reconnect();
      }
    });
    await c.connect();
    await c.query(`listen ${channel}`);
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
  return env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openPglite(env.DATA_DIR);
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

/** Calls `onNotify` whenever a transaction that ran `select pg_notify(channel, …)` commits, in any process. */
export async function listenDb(channel: string, onNotify: () => void): Promise<TUnlisten> {
  return (await handle()).listen(channel, onNotify);
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.db;
  globalForDb.db = undefined;
  if (h) await (await h).close();
}

/** Rows of a statement sent to the driver as text and parameters, bypassing drizzle's builder (hot paths only). */
export async function driverRows<T>(text: string, params: unknown[]): Promise<T[]> {
  return (await handle()).query<T>(text, params);
}

/** Rows of a raw SQL statement, the same on PGlite and node-postgres. */
export async function queryRows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { schema, sql };
