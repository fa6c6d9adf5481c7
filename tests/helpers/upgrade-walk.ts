import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashSecret } from '../../lib/crypto/secrets';
import { createPgDatabase, disposeAtExit, withAppDb, type startApp, type TAppDbQuery, type TLookBatch } from './app';
import { blankPglite, migrationsUpTo } from './old-database';

// One database that every upgrade step's earlier release left, for one app to open
// (tests/integration/upgrade.test.ts, the steps in tests/upgrade/): a step names the release its rows
// were written at, and the walk migrates release by release in migration order, inserting each
// release's rows when it reaches it — so older rows go through every newer migration, as they would
// have in the field. The app then applies the migrations after the newest step's release itself.
// A PGlite directory, or a PostgreSQL database when TEST_DATABASE_URL is set; gone when the test
// process ends, like databaseAt's (tests/helpers/old-database.ts).
//
// Steps share the database and the app, so each keeps to its own rows: its own ids, slugs, e-mails and
// account (named in `accounts`: its client is app.clients[name]; the sandbox account's rows are
// payload-search's, whose console search reads that account only), and a check that counts counts only its own.

/** The app on the walked database; `readyAt`: when it first answered (anything dated before came from the walk or the start). */
export type TUpgradeApp = Awaited<ReturnType<typeof startApp>> & { readyAt: string };

export type TUpgradeStep = {
  /** The test's name in upgrade.test.ts. */
  name: string;
  /** The migration tag (lib/db/migrations/meta/_journal.json) the rows are written at, as databaseAt takes. */
  release: string;
  /** SQL, as that release wrote its rows. */
  rows: string;
  /** Settings the app needs for the check; two steps may not ask for different values of one. */
  env?: Record<string, string>;
  /** Accounts to issue a client for (found by name, made if new): app.clients[name]. */
  accounts?: string[];
  check: (app: TUpgradeApp) => Promise<void>;
  /** Closes what the step's module started for its check (a receiver), when the file's tests are done. */
  close?: () => Promise<void>;
};

type TClients = Record<string, { client_id: string; client_secret: string }>;

/** The journal's tags in migration order. */
function journalTags(): string[] {
  const journal = path.resolve(import.meta.dirname, '../../lib/db/migrations/meta/_journal.json');
  return (JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: { tag: string }[] }).entries.map((e) => e.tag);
}

/** The settings every step asks for, in one; two steps asking for different values of one setting are refused, both named. */
export function unionEnv(steps: TUpgradeStep[]): Record<string, string> {
  const env: Record<string, string> = {};
  const askedBy: Record<string, string> = {};
  for (const step of steps) {
    for (const [key, value] of Object.entries(step.env ?? {})) {
      if (key in env && env[key] !== value)
        throw new Error(
          `${key}: "${askedBy[key]}" asks for ${JSON.stringify(env[key])}, "${step.name}" for ${JSON.stringify(value)}; one app cannot serve both`,
        );
      env[key] = value;
      askedBy[key] ??= step.name;
    }
  }
  return env;
}

/** The steps grouped by release, in migration order; a release the journal does not have is refused. */
export function releasesInOrder(steps: TUpgradeStep[], tags = journalTags()): { release: string; steps: TUpgradeStep[] }[] {
  for (const step of steps) if (!tags.includes(step.release)) throw new Error(`"${step.name}": no migration ${step.release}`);
  return tags.filter((tag) => steps.some((s) => s.release === tag)).map((release) => ({ release, steps: steps.filter((s) => s.release === release) }));
}

type TRun = { exec: (sql: string) => Promise<unknown>; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

async function openPglite(dir: string): Promise<TRun> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite(dir);
  await client.waitReady;
  return { exec: (sql) => client.exec(sql), migrate: (migrationsFolder) => migrate(drizzle({ client }), { migrationsFolder }), close: () => client.close() };
}

async function openPostgres(url: string): Promise<TRun> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { exec: (sql) => client.query(sql), migrate: (migrationsFolder) => migrate(drizzle({ client }), { migrationsFolder }), close: () => client.end() };
}

/** A client for each account, made in the walked database itself (as `npm run service -- clients:create` would, without its process per account). */
async function issueClients(run: TRun, accounts: string[]): Promise<TClients> {
  const clients: TClients = {};
  for (const [i, name] of accounts.entries()) {
    const client = {
      client_id: `gc_upgrade_${i}_${Date.now().toString(36)}`,
      client_secret: `upgrade-walk-secret-${i}-${Math.random().toString(36).slice(2)}`,
    };
    const quoted = `'${name.replaceAll("'", "''")}'`;
    await run.exec(`insert into service.accounts (name) values (${quoted}) on conflict (name) do nothing;
      insert into service.clients (id, account_id, secret_hash)
        select '${client.client_id}', id, '${await hashSecret(client.client_secret)}' from service.accounts where name = ${quoted};`);
    clients[name] = client;
  }
  return clients;
}

/**
 * The database every step's release left: migrated release by release, each release's rows inserted
 * when the walk reaches it (drizzle's migrator applies only what its journal has not applied), then a
 * client issued for every account the steps name. Its env for startApp (with the steps' settings), and
 * the clients by account name.
 */
export async function walkedDatabase(steps: TUpgradeStep[]): Promise<{ env: Record<string, string>; clients: TClients }> {
  const settings = unionEnv(steps);
  const releases = releasesInOrder(steps);
  const adminUrl = process.env.TEST_DATABASE_URL;
  let store: Record<string, string>;
  let run: TRun;
  if (adminUrl) {
    store = disposeAtExit({ DATABASE_URL: await createPgDatabase(adminUrl, 'gc_test_walk') });
    run = await openPostgres(store.DATABASE_URL);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-test-walk-'));
    store = disposeAtExit({ DATA_DIR: dataDir, DATABASE_URL: '' });
    fs.cpSync(await blankPglite(), path.join(dataDir, 'pg'), { recursive: true });
    run = await openPglite(path.join(dataDir, 'pg'));
  }
  try {
    for (const { release, steps: here } of releases) {
      const folder = migrationsUpTo(release);
      try {
        await run.migrate(folder);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
      for (const step of here) {
        await run.exec(step.rows).catch((err: Error) => {
          throw new Error(`"${step.name}": its rows at ${release}: ${err.message}`);
        });
      }
    }
    const clients = await issueClients(run, [...new Set(steps.flatMap((s) => s.accounts ?? []))]);
    return { env: { ...store, ...settings }, clients };
  } finally {
    await run.close();
  }
}

/**
 * The steps' looks at an embedded store in as few stops and starts of the app as can be: each look
 * (withAppDb, queryAppDb) stops the app, and a start costs ~3-5 CPU seconds. The `checks` run side by
 * side, all started at once by `run`; a look waits until every check not yet ended waits on one too,
 * and then all of them are taken in one stop of the app, one after another, before it starts again.
 * So no check sees the app stop under it: it stops only while every check still running waits for
 * its look. (On PostgreSQL withAppDb reads the database beside the running app and never asks this.)
 * A check waits on its own looks only: one that awaited another check's look would not count as
 * waiting, and the batch would wait for it for ever (stats-rollups' steps each take their own).
 * Returns each check's outcome, in order.
 */
export function runWithLookBatch(app: TUpgradeApp & { looks?: TLookBatch }, checks: (() => Promise<void>)[]): Promise<void>[] {
  let running = checks.length;
  let taking = false;
  const waiting: { look: (query: TAppDbQuery) => Promise<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const takeAll = async () => {
    const batch = waiting.splice(0);
    // The app's own withAppDb, once for every look that waits (with no batch on it). Each check hears
    // its look's outcome once the app is up again, not before: it goes on to ask the app.
    const settle: (() => void)[] = [];
    try {
      await withAppDb({ ...app, looks: undefined }, async (query) => {
        for (const w of batch) {
          await w.look(query).then(
            (v) => settle.push(() => w.resolve(v)),
            (e) => settle.push(() => w.reject(e)),
          );
        }
      });
      for (const s of settle) s();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };
  const maybeTake = () => {
    if (taking || waiting.length === 0 || waiting.length < running) return;
    taking = true;
    void takeAll().finally(() => {
      taking = false;
      maybeTake();
    });
  };
  app.looks = {
    look: <R>(look: (query: TAppDbQuery) => Promise<R>) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ look, resolve: resolve as (v: unknown) => void, reject });
        maybeTake();
      }),
  };
  return checks.map(async (check) => {
    try {
      await check();
    } finally {
      running--;
      maybeTake();
    }
  });
}
