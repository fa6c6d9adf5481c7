#!/usr/bin/env node
// The test command: build the app, run the unit and integration suites against it (node:test,
// real HTTP, real database), then the end-to-end suite in Chromium (Playwright).
//   npm test                      everything
//   npm test -- tests/integration/auth.test.ts   some files (skips e2e unless one is named)
// SKIP_BUILD=1 reuses the last build; unit files alone never build (npm run test:unit: all of them). TEST_DATABASE_URL=postgres://… runs against PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/**
 * The tests' scratch files — every app's embedded store (a copy of a 40 MB template), old databases,
 * scratch PostgreSQL clusters, Chromium profiles — go to memory (/dev/shm) when this machine has it
 * and TMPDIR is not set: writing that copy to disk cost ~1.2 CPU seconds of kernel time per app
 * started, a fifth of what an app start costs. Removed when the run ends.
 */
function scratchInMemory() {
  if (process.env.TMPDIR) return null;
  try {
    const dir = fs.mkdtempSync('/dev/shm/gc-tests-');
    fs.chmodSync(dir, 0o1777); // as /tmp: a scratch PostgreSQL cluster runs as the postgres user
    env.TMPDIR = dir;
    return dir;
  } catch {
    return null; // no /dev/shm: the system's temporary directory
  }
}
const scratch = scratchInMemory();

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  return r.status ?? 1;
}

function listTests(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f))
    .sort();
}

/**
 * The files longest first, by the wall times in .ci/test-times.txt ("seconds file" per line, from
 * a run's summary below); a file not listed there (a new one) counts as NEW_FILE_SECONDS. Ties keep
 * the given order. `node --test` does not keep it: it sorts the files it is given by name (Node 20
 * and 22 alike), so they run by name, tests/integration/ first and the short tests/unit/ files last,
 * which leaves no long file to start late. Run in this order instead (node:test's run() with this
 * list), the heaviest files started together and the embedded pass was no faster: 1,451 s, and the
 * same 115 files used 1.11× the CPU seconds, against 1,411 s by name (2026-11-30, each beside
 * other work at a load of ~15-25).
 */
const NEW_FILE_SECONDS = 30;
function longestFirst(files) {
  const known = new Map();
  const times = path.join(root, '.ci/test-times.txt');
  if (fs.existsSync(times)) {
    for (const line of fs.readFileSync(times, 'utf8').split('\n')) {
      const m = /^\s*([\d.]+)\s+(\S+)/.exec(line);
      if (m) known.set(path.normalize(m[2]), Number(m[1]));
    }
  }
  const seconds = (f) => known.get(path.normalize(f)) ?? (f.includes('/unit/') ? 0 : NEW_FILE_SECONDS);
  return files
    .map((f, i) => [f, i])
    .sort((a, b) => seconds(b[0]) - seconds(a[0]) || a[1] - b[1])
    .map(([f]) => f);
}

const requested = process.argv.slice(2);
const nodeFiles = longestFirst(
  requested.length ? requested.filter((f) => f.endsWith('.test.ts')) : [...listTests('tests/unit', '.test.ts'), ...listTests('tests/integration', '.test.ts')],
);
const e2eFiles = requested.length ? requested.filter((f) => f.endsWith('.spec.ts')) : listTests('tests/e2e', '.spec.ts');

// Unit tests need no build: `npm test -- tests/unit/x.test.ts` (or `npm run test:unit`) runs in seconds.
const unitOnly = requested.length > 0 && requested.every((f) => path.normalize(f).startsWith(path.normalize('tests/unit/')));
if (!process.env.SKIP_BUILD && !unitOnly) {
  console.log('\n▶ next build');
  if (run(bin('next'), ['build']) !== 0) {
    console.error('✖ the build failed');
    process.exit(1);
  }
}

/**
 * On PostgreSQL, one migrated, empty database per run, made by the app's own migrations
 * (scripts/prepare-db.ts): the apps the tests start get copies of it (CREATE DATABASE … TEMPLATE,
 * tests/helpers/app.ts) instead of migrating a new database each. Closed to connections, so a copy
 * never waits on one; dropped when the run ends. Null when it cannot be made: apps then migrate
 * their own (and the tests report what is wrong with the server).
 */
async function makePgTemplate(adminUrl) {
  const pg = (await import('pg')).default;
  const name = `gc_test_tpl_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
    const drop = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
    };
    const migrated = run(process.execPath, ['--import', 'tsx', 'scripts/prepare-db.ts'], { DATABASE_URL: url.toString() }) === 0;
    if (migrated) await admin.query(`alter database ${name} with allow_connections false`);
    else await drop();
    return migrated ? { name, drop } : null;
  } catch (err) {
    console.error(`(no template database: ${err.message}; each app migrates its own)`);
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
}

// The embedded store's templates (tests/helpers/prepare-templates.ts), once, before files run side by side.
if (!process.env.TEST_DATABASE_URL && !unitOnly && nodeFiles.length > 1) {
  run(process.execPath, ['--import', 'tsx', 'tests/helpers/prepare-templates.ts']);
}
const template = process.env.TEST_DATABASE_URL && !process.env.TEST_TEMPLATE_DATABASE && !unitOnly ? await makePgTemplate(process.env.TEST_DATABASE_URL) : null;
if (template) env.TEST_TEMPLATE_DATABASE = template.name;

/**
 * The shared apps (tests/helpers/shared-app.ts): node:test runs each file in a process of its own,
 * so the apps files share are the run's — started here beside the files (by
 * tests/helpers/shared-app-host.ts; a file waits for them only when it first needs one): one per
 * four files that use them, at most two (TEST_SHARED_APP_COUNT), so requests from files side by side
 * are served on both cores; none when no file to run uses them or TEST_SHARED_APPS=0. Their output
 * is in the folder below, kept when a test failed; their wall and CPU time are a line of the
 * slowest-files summary.
 */
function startSharedApps(files, fileTimes) {
  if (process.env.TEST_SHARED_APPS === '0' || unitOnly) return null;
  const users = files.filter((f) => fs.readFileSync(f, 'utf8').includes('sharedApp('));
  if (!users.length) return null;
  const dir = path.join(root, `tests/.tmp/shared-apps-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'manifest.json');
  // One app for every four files that use one (a few files gain nothing from a second start).
  const count = Math.min(Math.ceil(users.length / 4), Math.max(1, Number(process.env.TEST_SHARED_APP_COUNT || 2)));
  const host = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/shared-app-host.ts', manifest, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, TEST_FILE_TIMES: fileTimes },
  });
  env.TEST_SHARED_APPS = manifest;
  const exited = new Promise((resolve) => host.once('exit', resolve));
  return {
    dir,
    stop: async (keepLogs) => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGTERM');
      await exited;
      delete env.TEST_SHARED_APPS;
      if (keepLogs) console.log(`(the shared apps' output: ${path.relative(root, dir)})`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let passed = 0;
let failed = 0;
let skipped = 0;

if (nodeFiles.length) {
  console.log(`\n▶ node:test — ${nodeFiles.length} files${process.env.TEST_DATABASE_URL ? ' (PostgreSQL)' : ' (embedded PGlite)'}`);
  // A run's files are named for its store, so a PostgreSQL pass can run beside an embedded one (.ci/run).
  const suffix = process.env.TEST_DATABASE_URL ? '-postgres' : '';
  const report = path.join(root, `tests/.tmp/node-test-report${suffix}.txt`);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  // Each test process writes how many service responses it checked against /openapi.json (tests/helpers/openapi-check.ts).
  const checks = path.join(root, `tests/.tmp/openapi-checks${suffix}`);
  fs.rmSync(checks, { recursive: true, force: true });
  env.TEST_OPENAPI_CHECKS = checks;
  // Each file's wall time (tests/helpers/file-timer.mjs), for the summary of the slowest ones.
  const fileTimes = path.join(root, `tests/.tmp/file-times${suffix}.jsonl`);
  fs.rmSync(fileTimes, { force: true });
  const shared = startSharedApps(nodeFiles, fileTimes);
  const status = run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './tests/helpers/file-timer.mjs',
      '--test',
      // Files run side by side (each mostly waits on its apps and their timers): 2 by default, TEST_CONCURRENCY for more.
      `--test-concurrency=${process.env.TEST_CONCURRENCY || 2}`,
      // A test that hangs fails after 15 minutes (one that sets its own timeout keeps it) rather than holding the run. The
      // bound is also each file's, as a whole: backup.test's five tests side by side spent ~220 CPU s, which CI at a load
      // of ~30 stretched past 10 minutes three times (now two files whose tests run one at a time: 85 CPU s, 49 s alone).
      '--test-timeout=900000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${report}`,
      ...nodeFiles,
    ],
    { TEST_FILE_TIMES: fileTimes },
  );
  await shared?.stop(status !== 0);
  const tap = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
  const count = (key) => Number(new RegExp(`^# ${key} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
  passed += count('pass');
  failed += count('fail') + count('cancelled');
  skipped += count('skipped') + count('todo');
  if (status !== 0 && count('fail') + count('cancelled') === 0) failed += 1; // crashed before reporting
  const files = fs.existsSync(checks) ? fs.readdirSync(checks).map((f) => JSON.parse(fs.readFileSync(path.join(checks, f), 'utf8'))) : [];
  const responses = files.reduce((n, f) => n + f.responses, 0);
  const operations = new Set(files.flatMap((f) => f.operations));
  const times = fs.existsSync(fileTimes)
    ? fs
        .readFileSync(fileTimes, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  if (times.length > 1) {
    times.sort((a, b) => b.seconds - a.seconds);
    const cpu = times.reduce((n, t) => n + (t.cpu ?? 0), 0);
    console.log(
      `\nslowest files (wall and CPU seconds, the CPU with the apps each started; all ${times.length} in ${path.relative(root, fileTimes)}; ${cpu.toFixed(0)} CPU s in all):`,
    );
    for (const t of times.slice(0, 10)) console.log(`${String(t.seconds).padStart(7)} ${String(t.cpu ?? '-').padStart(6)}  ${t.file}`);
  }
  console.log(`\nOpenAPI: ${responses} service responses validated against /openapi.json (${operations.size} operations and conventions seen)`);
}

if (e2eFiles.length) {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    const msg = [
      '',
      '████ END-TO-END TESTS NOT RUN: no Chromium at ' + chromium,
      "████ Install Debian's: sudo apt-get install -y chromium",
      "████ or point CHROMIUM_PATH at a Chromium/Chrome binary (Playwright's own browsers work too).",
      '',
    ].join('\n');
    console.error(msg);
    if (process.env.CI) {
      console.error('CI is set: a missing browser fails the run.');
      failed += 1;
    } else {
      skipped += e2eFiles.length;
    }
  } else {
    console.log(`\n▶ playwright — ${e2eFiles.length} files`);
    const jsonOut = path.join(root, 'tests/.tmp/e2e-report.json');
    const status = run(bin('playwright'), ['test', ...e2eFiles], { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonOut });
    let stats = null;
    try {
      stats = JSON.parse(fs.readFileSync(jsonOut, 'utf8')).stats;
    } catch {
      /* no report */
    }
    if (stats) {
      passed += stats.expected + stats.flaky;
      failed += stats.unexpected;
      skipped += stats.skipped;
    }
    if (status !== 0 && (!stats || stats.unexpected === 0)) failed += 1;
  }
}

await template?.drop().catch((err) => console.error(`could not drop the template database ${template.name}: ${err.message}`));
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
process.exit(failed > 0 || passed === 0 ? 1 : 0);
