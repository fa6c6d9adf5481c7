import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as TDbClient from '../../lib/db/client';
import type * as TDbQuery from '../../lib/db/query';
import { createPgDatabase, dropPgDatabase, pgTemplateFor, templateDb } from './app';

// A fresh database opened by the app's own client inside the test process (a PGlite directory, or
// a PostgreSQL database with TEST_DATABASE_URL), for tests of lib/db code without a server: a copy
// of the migrated, empty template startApp's databases are copies of too (the client's migrations
// then find nothing to do). `close()` closes it and drops the database or directory.

/** The app's store modules, as a test opens them after setting DATA_DIR or DATABASE_URL. */
export type TTestDb = typeof TDbClient & typeof TDbQuery;

export async function openTestDatabase(label: string): Promise<{ client: TTestDb; close: () => Promise<void> }> {
  let dir: string | undefined;
  let pgUrl: string | undefined;
  if (process.env.TEST_DATABASE_URL) {
    pgUrl = await createPgDatabase(process.env.TEST_DATABASE_URL, 'gc_test', { template: pgTemplateFor(process.env.TEST_DATABASE_URL) });
    process.env.DATABASE_URL = pgUrl;
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `gc-test-${label}-`));
    fs.cpSync(await templateDb(), dir, { recursive: true });
    fs.rmSync(path.join(dir, 'owner.lock'), { force: true });
    Object.assign(process.env, { DATA_DIR: dir, DATABASE_URL: '' });
  }
  const client = { ...(await import('../../lib/db/client')), ...(await import('../../lib/db/query')) };
  await client.getDb();
  return {
    client,
    close: async () => {
      await client.closeDb();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      if (pgUrl) await dropPgDatabase(pgUrl);
    },
  };
}
