import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgDatabase, disposeAtExit } from './app';

// A database as an earlier release left it: only the migrations up to `lastTag` applied, then
// `rows` (SQL) inserted. A PGlite directory, or a PostgreSQL database when TEST_DATABASE_URL is set.
// Returns the env that points an app at it; the app then applies the newer migrations itself. The
// database (or directory) goes when the test process ends, like the ones startApp makes.

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A PGlite directory as a first open leaves it (initialised, nothing migrated), made once per
 * PGlite version and copied per old database: creating one costs about ten times what copying does.
 */
export async function blankPglite(): Promise<string> {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  const tmp = path.join(ROOT, 'tests/.tmp');
  const blank = path.join(tmp, `blank-pglite-${version}`);
  if (fs.existsSync(path.join(blank, 'PG_VERSION'))) return blank;
  fs.mkdirSync(tmp, { recursive: true });
  const staging = fs.mkdtempSync(path.join(tmp, 'blank-'));
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(staging);
  await client.waitReady;
  await client.close();
  try {
    fs.renameSync(staging, blank);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }); // another file made it first
  }
  return blank;
}

/** A migrations folder of the migrations up to `lastTag` (the journal cut there), for drizzle's migrator; the caller removes it. */
export function migrationsUpTo(lastTag: string): string {
  const src = path.join(ROOT, 'lib/db/migrations');
  const journal = JSON.parse(fs.readFileSync(path.join(src, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gc-migrations-${lastTag}-`));
  fs.mkdirSync(path.join(dir, 'meta'));
  journal.entries = journal.entries.slice(0, last + 1);
  for (const e of journal.entries) fs.copyFileSync(path.join(src, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

export async function databaseAt(lastTag: string, rows: string): Promise<Record<string, string>> {
  const migrationsFolder = migrationsUpTo(lastTag);
  const adminUrl = process.env.TEST_DATABASE_URL;
  try {
    if (adminUrl) {
      const pg = (await import('pg')).default;
      const url = await createPgDatabase(adminUrl, 'gc_test_old');
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await migrate(drizzle({ client }), { migrationsFolder });
      await client.query(rows);
      await client.end();
      return disposeAtExit({ DATABASE_URL: url });
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-test-old-db-'));
    fs.cpSync(await blankPglite(), path.join(dataDir, 'pg'), { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite(path.join(dataDir, 'pg'));
    await client.waitReady;
    await migrate(drizzle({ client }), { migrationsFolder });
    await client.exec(rows);
    await client.close();
    return disposeAtExit({ DATA_DIR: dataDir, DATABASE_URL: '' });
  } finally {
    fs.rmSync(migrationsFolder, { recursive: true, force: true });
  }
}
