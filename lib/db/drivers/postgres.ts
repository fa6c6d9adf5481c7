import type pgModule from 'pg';
import * as schema from '../schema';
import { noteStoreAnswered, noteStoreError } from '../store-availability';
import { MIGRATIONS_FOLDER, observe, type Db, type THandle, type TOnNotify, type TUnlisten } from './handle';

// PostgreSQL at DATABASE_URL: a pool of 10, migrated under an advisory lock (several instances may
// start at once), each LISTEN on a connection of its own that names its channel.
//
// The pool keeps POOL_MIN connections open however quiet it is (pg-pool closes the others after 10 s idle). Without a
// floor a quiet minute left one or two, and when a retention pass took them ingest's next batch waited for a connection
// to be opened: a new backend, its login and its catalog caches still cold — ~100 ms in which no receipt was stored
// (`npm run bench`'s year section, 500 receipts/s, pg_stat_activity every 4 ms: the batch went out on a backend started
// during the drop). Four: ingest's batch, the two halves' passes, and a claim of the delivery worker or a request beside
// them.
const POOL_MIN = 4;

type TPg = typeof pgModule;

export async function openPostgres(url: string): Promise<THandle> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  // onConnect: run on each new connection before the pool hands it out (pg-pool awaits what it returns).
  const pool = new pg.Pool({ connectionString: url, max: 10, min: POOL_MIN, ...CONNECTION_OPTIONS, onConnect: (client) => client.query(JIT_OFF) });
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
  const listening = new Set<TUnlisten>();
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    listen: async (channel, onNotify) => {
      const unlisten = await listenPostgres(pg, url, channel, onNotify);
      listening.add(unlisten);
      return () => {
        listening.delete(unlisten);
        return unlisten();
      };
    },
    query: async <T>(text: string, params: unknown[], name?: string) =>
      (await (name ? pool.query({ name, text, values: params }) : pool.query(text, params))).rows as T[],
    // Its LISTENs end with it: left, each would reconnect every second to a store that is gone (a dropped database's
    // 57P01), and keep its process from ending.
    close: async () => {
      await Promise.all([...listening].map((unlisten) => unlisten()));
      await pool.end();
    },
    abandon: () => {},
  };
}

// A store that does not answer a connection within 5 s is taken as down (the request gets a 503)
// rather than holding the request; TCP keep-alive finds a dead peer of an idle connection.
const CONNECTION_OPTIONS = { connectionTimeoutMillis: 5000, keepAlive: true };

/**
 * JIT off on each of the pool's connections, set as its first statement. The app's statements are index reads of a few
 * hundred rows, but over partitioned tables the planner's estimates add up per partition: the export's page of 500 (42
 * daily partitions of attempts, each probed per row) was costed over jit_above_cost, and compiling it took 1.4 s of its
 * 1.66 s, every page (EXPLAIN ANALYZE, PostgreSQL 15). No statement of ours runs long enough for compiled code to win that
 * back. A `SET`, not `-c jit=off` in the startup options: a pooler such as PgBouncer refuses a startup parameter it does
 * not know ("unsupported startup parameter: options") and the app could not connect through it at all.
 */
const JIT_OFF = 'set jit = off';

/** The application_name of a connection that LISTENs on `channel`: how other processes see that someone listens (lib/db/listeners.ts). */
export const listenerName = (channel: string) => `gc-listen:${channel}`;

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
