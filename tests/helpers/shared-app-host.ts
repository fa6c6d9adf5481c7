import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { disposeNow, freshStore, startApp, type TApp } from './app';

// Started by scripts/test.mjs beside the node:test files: the suite's shared apps
// (tests/helpers/shared-app.ts), each the default test app on a database of its own, with a pool
// of accounts issued before it starts. Writes what the files need to reach them to the manifest
// (argv[2]) as they answer — `{ apps: [...] }`, the first alone as soon as it is up, or `{ error }`
// when one could not start — and stops them, dropping their databases, on SIGTERM or SIGINT.
//   node --import tsx tests/helpers/shared-app-host.ts <manifest.json> [apps]

export type TSigningKey = { kid: string; privateJwk: Record<string, unknown> };

export type TSharedManifest = {
  apps?: {
    baseUrl: string;
    port: number;
    env: Record<string, string>;
    pid: number;
    logFile: string;
    pool: Record<string, { client_id: string; client_secret: string }>;
    claims: string;
    /** The app's signing key (made before it started, tests/helpers/issue-clients.ts): files sign tokens of their own with it. */
    signingKey: TSigningKey;
  }[];
  error?: string;
};

/** Accounts issued per shared app, handed out one per `sharedApp({ accounts })` name (claims are atomic directories). */
export const POOL_SIZE = 32;

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = process.argv[2];
const count = Math.max(1, Number(process.argv[3] ?? 2));
if (!manifest) throw new Error('usage: shared-app-host.ts <manifest.json> [apps]');
const dir = path.dirname(manifest);

const write = (value: TSharedManifest) => {
  fs.writeFileSync(`${manifest}.tmp`, JSON.stringify(value));
  fs.renameSync(`${manifest}.tmp`, manifest); // whole or not at all: files poll for it
};

const apps: { app?: TApp; store: Record<string, string> }[] = [];
let stopping = false;
async function stopAll(code: number): Promise<never> {
  stopping = true;
  await Promise.all(
    apps.map(async ({ app, store }) => {
      await app?.stop().catch(() => {});
      await disposeNow(store);
    }),
  );
  recordTime();
  clearInterval(keepAlive);
  process.exit(code);
}

/** This process's wall time and the CPU time of it and its apps (reaped: /proc's cutime), as a line of the run's file times (tests/helpers/file-timer.mjs). */
function recordTime(): void {
  const out = process.env.TEST_FILE_TIMES;
  if (!out) return;
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const ticks = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .reduce((n, f) => n + Number(f), 0);
    const line = {
      file: `the ${apps.length} shared apps (tests/helpers/shared-app-host.ts)`,
      start: Number(((Date.now() - performance.now()) / 1000).toFixed(1)),
      seconds: Number((performance.now() / 1000).toFixed(1)),
      cpu: Number((ticks / 100).toFixed(1)),
    };
    fs.appendFileSync(out, JSON.stringify(line) + '\n');
  } catch {
    /* off Linux: no line */
  }
}
// Alive until told to stop: the apps themselves do not hold a test process open (tests/helpers/app.ts).
const keepAlive = setInterval(() => {}, 1 << 30);
process.once('SIGTERM', () => void stopAll(0));
process.once('SIGINT', () => void stopAll(0));

async function startOne(i: number): Promise<NonNullable<TSharedManifest['apps']>[number]> {
  const store = await freshStore();
  const entry: (typeof apps)[number] = { store };
  apps.push(entry);
  const names = Array.from({ length: POOL_SIZE }, (_, k) => `shared-${i + 1}-${k + 1}`);
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests/helpers/issue-clients.ts'), ...names], {
    cwd: ROOT,
    env: { ...process.env, ...store },
  });
  const { clients: pool, signingKey } = JSON.parse(stdout.trim().split('\n').pop()!);
  const logFile = path.join(dir, `shared-app-${i + 1}.log`);
  const claims = path.join(dir, `shared-app-${i + 1}-claims`);
  fs.mkdirSync(claims, { recursive: true });
  const app = (entry.app = await startApp({ env: store, logFile }));
  return { baseUrl: app.baseUrl, port: app.port, env: app.env, pid: app.pid()!, logFile, pool, claims, signingKey };
}

try {
  // One after another, each listed once it answers: the first files of a run wait only for the first app (they
  // take its accounts), not for every app started side by side. On two busy cores (CI's first minutes, the other
  // passes starting) two starts at once each took as long as both one after the other, and the files that
  // came first held their test slots for all of it.
  const started: NonNullable<TSharedManifest['apps']> = [];
  for (let i = 0; i < count && !stopping; i++) {
    started.push(await startOne(i));
    if (!stopping) write({ apps: started });
  }
} catch (err) {
  write({ error: (err as Error).message });
  await stopAll(1);
}
