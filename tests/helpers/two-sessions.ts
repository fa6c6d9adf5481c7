import { after } from 'node:test';
import pg from 'pg';
import { disposeNow } from './app';
import { databaseAt } from './old-database';

// Two sessions on a PostgreSQL store of an earlier release (old-database.ts), for tests of what one session's DDL locks
// against the other: `a` does the DDL (its backend's pid given, to read its locks in pg_locks), `b` looks and tries. The
// stores go when the test file ends.

const stores: Record<string, string>[] = [];
after(async () => {
  for (const store of stores) await disposeNow(store);
});

/** Runs `fn` with two sessions on a store at `release` (then `rows` inserted), and closes them. */
export async function withTwoSessions<T>(release: string, rows: string, fn: (a: pg.Client, b: pg.Client, pid: number) => Promise<T>): Promise<T> {
  const store = await databaseAt(release, rows);
  stores.push(store);
  const [a, b] = [new pg.Client({ connectionString: store.DATABASE_URL }), new pg.Client({ connectionString: store.DATABASE_URL })];
  await a.connect();
  await b.connect();
  try {
    const [{ pid }] = (await a.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    return await fn(a, b, pid);
  } finally {
    await a.end();
    await b.end();
  }
}

/** `b`'s statements in a transaction waiting at most 300 ms for their locks, rolled back: null when they ran, else the error. */
export async function triedBeside(b: pg.Client, statements: string[]): Promise<string | null> {
  await b.query(`begin; set local lock_timeout = '300ms'`);
  try {
    for (const s of statements) await b.query(s);
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await b.query('rollback');
  }
}
