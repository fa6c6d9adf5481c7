import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPgDatabase, dropPgDatabase, type TApp } from '../helpers/app';
import { onCleanup } from './cleanup';
import { PG_ADMIN_URL, type TStore } from './config';

// Fresh stores for the bench and their cleanup, and SQL against a store that a process may hold:
// PostgreSQL directly; an embedded PGlite directory only while no server has it open.

export type TSql = (text: string) => Promise<Record<string, unknown>[]>;

/** A fresh, empty store: a temp directory (the server migrates it) or a new PostgreSQL database. */
export async function freshStore(kind: TStore, label: string): Promise<{ target: string; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gc-bench-${label}-`));
    return { target: dir, drop: onCleanup(async () => fs.rmSync(dir, { recursive: true, force: true })) };
  }
  const url = await createPgDatabase(PG_ADMIN_URL, `gc_bench_${label.replace(/\W/g, '_')}`);
  return { target: url, drop: onCleanup(() => dropPgDatabase(url)) };
}

/** Runs `fn` with SQL on a PGlite directory (no server may hold it) or a PostgreSQL URL. */
export async function withSql<T>(kind: TStore, target: string, fn: (sql: TSql) => Promise<T>): Promise<T> {
  if (kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = new PGlite(path.join(target, 'pg'));
    try {
      return await fn(async (text) => {
        const results = await db.exec(text);
        return (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[];
      });
    } finally {
      await db.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return await fn(async (text) => {
      const result = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return (last?.rows ?? []) as Record<string, unknown>[];
    });
  } finally {
    await client.end();
  }
}

/** SQL on the app's own database: on PGlite the app is stopped meanwhile (it holds the directory) and restarted. */
export async function withAppSql<T>(app: TApp, fn: (sql: TSql) => Promise<T>): Promise<T> {
  if (app.env.DATABASE_URL) return withSql('postgres', app.env.DATABASE_URL, fn);
  await app.stop();
  try {
    return await withSql('pglite', app.env.DATA_DIR, fn);
  } finally {
    await app.restart();
  }
}

/** Stops the app and removes its database (temp directory or PostgreSQL database). */
export async function disposeApp(app: TApp): Promise<void> {
  await app.stop();
  if (app.env.DATABASE_URL) await dropPgDatabase(app.env.DATABASE_URL);
  else if (app.env.DATA_DIR?.includes('gc-test-db-')) fs.rmSync(app.env.DATA_DIR, { recursive: true, force: true });
}
