import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// Starts the real, built app (the production server `npm start` runs) on a free port with its own database: a copy of a
// prepared PGlite directory by default, a fresh PostgreSQL database when TEST_DATABASE_URL is set (a
// copy of the run's migrated template when scripts/test.mjs made one).

const ROOT = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(ROOT, 'tests/.tmp');
const MIGRATIONS = path.join(ROOT, 'lib/db/migrations');
export const DIST_DIR = process.env.NEXT_DIST_DIR || '.next';
/** The production server `npm start` runs (scripts/server.mjs). */
export const SERVER = path.join(ROOT, 'scripts/server.mjs');
const execFileAsync = promisify(execFile);

// The tests' own credentials, set on every app startApp starts (the app refuses the published defaults
// of earlier releases, and generates its own when none are set: tests/integration/readme.test.ts).
export const SANDBOX = { clientId: 'sandbox-client', clientSecret: 'tests-sandbox-secret-4f9c', audience: 'https://api.giving-connect.test' };
export const ADMIN = { email: 'admin@example.org', password: 'tests-admin-password-7d2e' };
/** The settings that name them: `unsetEnv: CREDENTIAL_SETTINGS` starts an app as `npm start` does, generating its own. */
export const CREDENTIAL_SETTINGS = ['CONSOLE_ADMIN_PASSWORD', 'SANDBOX_CLIENT_SECRET'];

export type TApp = {
  baseUrl: string;
  port: number;
  env: Record<string, string>;
  logs: () => string;
  /** The running server process's id (it changes on restart), e.g. for its RSS in /proc. */
  pid: () => number | undefined;
  /** SIGKILL, as a crash would. */
  kill: () => Promise<void>;
  stop: () => Promise<void>;
  /** Stops the app and drops the database startApp made for it at once (not only when the process ends). */
  destroy: () => Promise<void>;
  /** Starts the app again on the same port and database. */
  restart: (extraEnv?: Record<string, string>) => Promise<void>;
};

/** Whether this machine has IPv6 loopback (`[::1]`) to listen on. */
export async function canBindIpv6(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer().once('error', () => resolve(false));
    s.listen(0, '::1', () => s.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A migrated, empty PGlite directory, made once and copied per app (reopening is ~10x faster than creating). */
export async function templateDb(): Promise<string> {
  // Keyed by the migrations, so a schema change never reuses a stale template.
  const hash = createHash('sha256');
  for (const f of fs.readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS, f);
    if (fs.statSync(full).isFile()) hash.update(f).update(fs.readFileSync(full));
  }
  const TEMPLATE = path.join(TMP, `template-db-${hash.digest('hex').slice(0, 12)}`);
  if (fs.existsSync(path.join(TEMPLATE, 'pg', 'PG_VERSION'))) return TEMPLATE;
  fs.mkdirSync(TMP, { recursive: true });
  const staging = fs.mkdtempSync(path.join(TMP, 'template-'));
  await execFileAsync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/prepare-db.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: staging, DATABASE_URL: '' },
  });
  try {
    fs.renameSync(staging, TEMPLATE);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }); // another file made it first
  }
  return TEMPLATE;
}

/**
 * A new PostgreSQL database next to `adminUrl`'s; its URL. Empty, or a copy of `template` (a
 * database on the same server that nobody is connected to).
 */
export async function createPgDatabase(adminUrl: string, prefix = 'gc_test', { template }: { template?: string } = {}): Promise<string> {
  const pg = (await import('pg')).default;
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  if (template !== undefined && !/^gc_test_tpl_\w+$/.test(template)) throw new Error(`refusing to copy ${template}: not a test template`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// The databases startApp made, dropped once the test file's work is done (node:test runs each file
// in a process of its own; 'beforeExit' may still do async work). Apps may stop and restart on
// their database until then.
const owned: Record<string, string>[] = [];
/** Drops the database (or removes the PGlite directory) `store` names when this test process ends. */
export function disposeAtExit(store: Record<string, string>): Record<string, string> {
  if (owned.length === 0) {
    process.once('beforeExit', async () => {
      for (const s of owned.splice(0)) {
        if (s.DATABASE_URL) await dropPgDatabase(s.DATABASE_URL).catch((err) => console.error(`could not drop a test database: ${err}`));
        else if (s.DATA_DIR) fs.rmSync(s.DATA_DIR, { recursive: true, force: true });
      }
    });
  }
  owned.push(store);
  return store;
}

/** Drops `store` now (and no longer at exit): for runners such as Playwright, whose workers may end without 'beforeExit'. */
export async function disposeNow(store: Record<string, string>): Promise<void> {
  const i = owned.indexOf(store);
  if (i < 0) return;
  owned.splice(i, 1);
  if (store.DATABASE_URL) await dropPgDatabase(store.DATABASE_URL).catch((err) => console.error(`could not drop a test database: ${err}`));
  else if (store.DATA_DIR) fs.rmSync(store.DATA_DIR, { recursive: true, force: true });
}

/** Drops a database made by createPgDatabase (its apps stopped first). */
export async function dropPgDatabase(url: string): Promise<void> {
  const pg = (await import('pg')).default;
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  if (!/^gc_(test|bench)\w*$/.test(name)) throw new Error(`refusing to drop ${name}: not a test database`);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * The migrated, empty database scripts/test.mjs made on TEST_DATABASE_URL's server for this run
 * (TEST_TEMPLATE_DATABASE), when `adminUrl` is on that server: an app's fresh database is a copy of
 * it, the very database its migrations would make, without running them once per app.
 */
export function pgTemplateFor(adminUrl: string): string | undefined {
  const template = process.env.TEST_TEMPLATE_DATABASE;
  const shared = process.env.TEST_DATABASE_URL;
  if (!template || !shared) return undefined;
  const a = new URL(adminUrl);
  const b = new URL(shared);
  return a.host === b.host && a.username === b.username ? template : undefined;
}

async function freshDatabase(adminUrl: string | null | undefined = process.env.TEST_DATABASE_URL): Promise<Record<string, string>> {
  if (adminUrl) return { DATABASE_URL: await createPgDatabase(adminUrl, 'gc_test', { template: pgTemplateFor(adminUrl) }) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-test-db-'));
  fs.cpSync(await templateDb(), dir, { recursive: true });
  fs.rmSync(path.join(dir, 'owner.lock'), { force: true });
  return { DATA_DIR: dir, DATABASE_URL: '' };
}

/** A migrated, empty database of this test process's own, as startApp makes (dropped when it ends, or by disposeNow): on TEST_DATABASE_URL's server when set. */
export async function freshStore(): Promise<Record<string, string>> {
  return disposeAtExit(await freshDatabase());
}

/** A migrated, empty embedded store of this test process's own (removed when it ends): `{ DATA_DIR, DATABASE_URL: '' }`. */
export async function freshDataDir(): Promise<Record<string, string>> {
  return disposeAtExit(await freshDatabase(null));
}

/** Runs a project CLI (npm run service / console) against the app's database; returns its last line. */
export async function runCli(script: 'service-cli' | 'console-cli' | 'worker', args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(ROOT, `scripts/${script}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return stdout.trim().split('\n').pop() ?? '';
}

export type TStartOptions = {
  env?: Record<string, string>;
  /** Accounts to issue a client for before the app starts: name → credentials. */
  accounts?: string[];
  /** The PostgreSQL server to create the app's database on; null: an embedded store. TEST_DATABASE_URL by default. */
  adminUrl?: string | null;
  /** Test defaults to leave out, so the app runs on its own defaults (e.g. DELIVERY_RETRY_SCHEDULE). */
  unsetEnv?: string[];
  /** The host name of PUBLIC_URL (127.0.0.1 by default): `localhost` plays the README's default setup. */
  publicHost?: string;
  /** A file the app's output is appended to as well (the shared apps': tests/helpers/shared-app-host.ts). */
  logFile?: string;
  /**
   * The server in a session of its own (setsid), as a service manager starts one: with the kernel's autogroup on, the CPU is
   * shared between sessions, and each PostgreSQL backend is one. In the caller's, the server shares one session's share
   * with the caller (a bench's load) while every backend has a whole one.
   */
  ownSession?: boolean;
};

// Every app process this test process started and has not seen exit. None of them keeps the test
// process alive (unref'd, with its output pipes): an app a test no longer holds — one started beside
// another whose start failed in the same Promise.all, so that neither was assigned nor stopped —
// would otherwise keep the file from ever ending, with no timer running (CI once hung 15 min so).
// At exit whatever is left is killed; stopping one waits for it held (ref'd) again.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const proc of live) proc.kill('SIGKILL');
});
type TRefable = { ref(): unknown; unref(): unknown };
const hold = (proc: ChildProcess, held: boolean) => {
  // The output pipes are net.Sockets (stdio 'pipe'), which a Readable's type does not say.
  for (const h of [proc, proc.stdout, proc.stderr] as unknown as (TRefable | null)[]) {
    if (held) h?.ref();
    else h?.unref();
  }
};

export async function startApp(options: TStartOptions = {}): Promise<TApp & { clients: Record<string, { client_id: string; client_secret: string }> }> {
  const port = await freePort();
  // With a public host name (localhost), the app is reached by it, on IPv4 and IPv6 loopback alike.
  const baseUrl = `http://${options.publicHost ?? '127.0.0.1'}:${port}`;
  const host = options.publicHost && (await canBindIpv6()) ? '::' : '127.0.0.1';
  const ownsDatabase = !(options.env?.DATABASE_URL || options.env?.DATA_DIR);
  let fresh: Record<string, string> | undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    NEXT_DIST_DIR: DIST_DIR,
    DELIVERY_ALLOW_PRIVATE: 'true',
    // Settings under their production floor (alerts every 200 ms, a webhook disabled after 20 s): lib/env-tuning.ts.
    TEST_HARNESS: '1',
    // DELIVERY_POLL_MS keeps its default (2 s): the worker is woken by commits and sleeps until the
    // next retry falls due, so a faster poll only burns CPU — 5% of a core per idle app at 100 ms,
    // with several apps alive at once on a 2-core machine.
    DELIVERY_RETRY_SCHEDULE: '1,1,1,1,1,1,1',
    NEXT_TELEMETRY_DISABLED: '1',
    CONSOLE_ADMIN_PASSWORD: ADMIN.password,
    SANDBOX_CLIENT_SECRET: SANDBOX.clientSecret,
    // A database the caller names (an old one, or one shared by several instances) is used as is;
    // a fresh one is this app's, and goes when the test process ends.
    ...(ownsDatabase ? (fresh = disposeAtExit(await freshDatabase(options.adminUrl))) : { DATABASE_URL: '' }),
    ...options.env,
  };
  for (const key of options.unsetEnv ?? []) delete env[key];
  const clients: Record<string, { client_id: string; client_secret: string }> = {};
  const issue = async (account: string) => {
    clients[account] = JSON.parse(await runCli('service-cli', ['clients:create', '--account', account], env));
  };
  // The embedded store is one process's: its clients are issued one after another, before the app
  // opens it. PostgreSQL takes them all at once, while the app starts.
  const onPostgres = Boolean(env.DATABASE_URL);
  if (!onPostgres) for (const account of options.accounts ?? []) await issue(account);
  const issued = onPostgres ? Promise.all((options.accounts ?? []).map(issue)) : Promise.resolve();
  issued.catch(() => {});
  let child: ChildProcess | undefined;
  let log = '';
  const launch = async (extra: Record<string, string> = {}) => {
    log += `\n--- start ${new Date().toISOString()}\n`;
    // APP_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=tests/.tmp/prof") profiles the app under a bench or script.
    const proc = spawn(process.execPath, [...(process.env.APP_NODE_ARGS?.split(' ').filter(Boolean) ?? []), SERVER], {
      cwd: ROOT,
      env: { ...process.env, HOST: host, ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.ownSession ?? false,
    });
    child = proc;
    live.add(proc);
    proc.once('exit', () => live.delete(proc));
    hold(proc, false);
    const out = (d: Buffer) => {
      log += d;
      if (options.logFile) fs.appendFileSync(options.logFile, d);
    };
    proc.stdout!.on('data', out);
    proc.stderr!.on('data', out);
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`app exited (${code}) before it was ready:\n${log}`))));
    exited.catch(() => {});
    // 180 s: three apps starting at once in one file took over 60 s beside CI's two other passes (load ~25).
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`app not ready in 180 s:\n${log}`);
      const ready = await Promise.race([
        fetch(`${baseUrl}/api/health`).then(
          (r) => r.ok,
          () => false,
        ),
        exited,
      ]);
      if (ready) break;
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  const waitExit = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      hold(child, true);
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  // A start that fails (not ready in time, a client not issued) leaves no app behind.
  await Promise.all([launch(), issued]).catch(async (err) => {
    await waitExit('SIGKILL');
    throw err;
  });
  return {
    baseUrl,
    port,
    env,
    clients,
    logs: () => log,
    pid: () => child?.pid,
    kill: () => waitExit('SIGKILL'),
    stop: () => waitExit('SIGTERM'),
    destroy: async () => {
      await waitExit('SIGTERM');
      if (fresh) await disposeNow(fresh);
    },
    restart: async (extra) => {
      await waitExit('SIGTERM');
      await launch(extra);
    },
  };
}

export type TAppDbQuery = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * Runs SQL against the app's own database, as an operator with psql would: PostgreSQL directly;
 * an embedded store by stopping the app (PGlite is one process's), querying, and starting it again.
 */
export async function queryAppDb<T = Record<string, unknown>>(app: TApp, text: string, params: unknown[] = []): Promise<T[]> {
  return withAppDb(app, (query) => query<T>(text, params));
}

/**
 * Looks at an embedded store gathered into one stop and start: withAppDb on an app that carries one
 * hands its look to it (tests/helpers/upgrade-walk.ts, runWithLookBatch), rather than stopping the app itself.
 */
export type TLookBatch = { look: <R>(look: (query: TAppDbQuery) => Promise<R>) => Promise<R> };

/**
 * Several looks at the app's own database in one session (`query` as queryAppDb's): on the embedded
 * store the app stops and starts again once for all of them, not once per statement (~3 CPU seconds each).
 * `leaveStopped`: a last look, after which nothing asks the app again — on the embedded store it stays stopped.
 */
export async function withAppDb<R>(app: TApp & { looks?: TLookBatch }, look: (query: TAppDbQuery) => Promise<R>, { leaveStopped = false } = {}): Promise<R> {
  if (app.looks && !app.env.DATABASE_URL && !leaveStopped) return app.looks.look(look);
  if (app.env.DATABASE_URL) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: app.env.DATABASE_URL });
    await client.connect();
    try {
      return await look(async (text, params = []) => (await client.query(text, params)).rows);
    } finally {
      await client.end();
    }
  }
  await app.stop();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(app.env.DATA_DIR, 'pg'));
  try {
    return await look(async (text, params = []) => (await db.query(text, params)).rows as never);
  } finally {
    await db.close();
    if (!leaveStopped) await app.restart();
  }
}
