// Own app: an embedded store on a small full file system, with scheduled backups.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { freePort, freshDataDir, SERVER, startApp, withAppDb, type TApp } from '../helpers/app';
import { call, eventually, staffCookie } from '../helpers/http';
import { writeTarball } from '../helpers/tarball';

// The embedded store on a full disk (DATA_DIR on a small tmpfs this test mounts; it runs as root):
// ingest answers 2xx only for what it stored and 503 with Retry-After otherwise, the app stays up
// and logs one line when the store stops taking writes and one when it takes them again, scheduled
// backups back off the same way, and nothing acknowledged is lost. A start on a full disk ends
// with one sentence naming the data directory and the space left. (tests/integration/store-write-failure.test.ts
// has the injected disk_full of PostgreSQL and a receipt refused whole.)
// @ci-one-store: CI runs this file in the embedded-store pass only (its app is on the embedded store).

delete process.env.TEST_DATABASE_URL; // the embedded store's disk is the subject
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A tmpfs of `size` mounted for this test (unmounted in its cleanup); null, with a loud skip, where mounting is not allowed. */
function smallDisk(t: TestContext, size: string): string | null {
  if (process.getuid?.() !== 0 || os.platform() !== 'linux') {
    console.warn('SKIPPED: the full-disk tests need root on Linux to mount a small tmpfs');
    t.skip('needs root on Linux to mount a small tmpfs');
    return null;
  }
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mountPoint]);
  } catch (err) {
    fs.rmSync(mountPoint, { recursive: true, force: true });
    console.warn(`SKIPPED: cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}): the full-disk tests did not run`);
    t.skip('mount is not allowed here');
    return null;
  }
  return mountPoint;
}

function unmount(mountPoint: string): void {
  execFileSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
}

const free = (dir: string) => {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
};
/** Fills the disk of `mountPoint` until `leave` bytes are free; the filler's path. */
function fill(mountPoint: string, leave: number): string {
  const filler = path.join(mountPoint, 'filler');
  execFileSync('fallocate', ['-l', String(Math.max(0, free(mountPoint) - leave)), filler]);
  return filler;
}

async function storeOn(mountPoint: string): Promise<string> {
  const dataDir = path.join(mountPoint, 'data');
  fs.cpSync((await freshDataDir()).DATA_DIR, dataDir, { recursive: true });
  return dataDir;
}

test('a start on a full disk ends at once with one sentence naming the data directory and the space left', async (t) => {
  const mountPoint = smallDisk(t, '80m');
  if (!mountPoint) return;
  t.after(() => unmount(mountPoint));
  const dataDir = await storeOn(mountPoint);
  fill(mountPoint, 64 * 1024);
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 1, out);
  const lines = out.split('\n').filter((l) => l.trim() && !/^▲ Next|Running next\.config/.test(l.trim()));
  assert.equal(lines.length, 1, out);
  assert.equal(
    lines[0].replace(/\(\d+ KiB free;/, '(N KiB free;'),
    `The disk holding the data directory ${dataDir} is full (N KiB free; the embedded store needs at least 48.0 MiB to start): free some space there, or move DATA_DIR to a larger disk, and start again.`,
  );
  assert.doesNotMatch(out, /Aborted\(\)|at .*\.js:\d+/, 'no abort, no stack');
});

test('a restore refuses a backup its disk cannot hold (less the room the store needs to start) before writing it, in one sentence, leaving nothing', async (t) => {
  const mountPoint = smallDisk(t, '64m');
  if (!mountPoint) return;
  t.after(() => unmount(mountPoint));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-restore-room-'));
  t.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
  // 24 MiB that does not compress: far within the ratio bound, past what the 64 MiB disk can take.
  const file = path.join(scratch, 'large.tar.gz');
  const manifest = {
    format: 'giving-connect-console-backup',
    formatVersion: 1,
    createdAt: new Date().toISOString(),
    appVersion: '0.1.0',
    store: 'pglite',
    postgres: '17.5',
    lastMigration: null,
    rowCounts: {},
  };
  await writeTarball(file, [
    { path: 'manifest.json', body: Buffer.from(JSON.stringify(manifest)) },
    { path: 'pg/PG_VERSION', body: Buffer.from('17\n') },
    { path: 'pg/base/1/16384', body: randomBytes(24 << 20) },
  ]);
  const target = path.join(mountPoint, 'data');
  const { code, err } = await new Promise<{ code: number; err: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/console-cli.ts'), 'restore', '--from', file],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: target, DATABASE_URL: '' } },
      (error, _out, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, err: stderr }),
    ),
  );
  assert.equal(code, 1, err);
  assert.match(
    err.trim(),
    new RegExp(
      `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} unpacks to more than the [\\d.]+ MiB the disk of ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} can take \\([\\d.]+ MiB free, less the 48\\.0 MiB the store needs to start\\): free some space there or restore onto a larger disk; nothing was restored\\.$`,
    ),
  );
  assert.ok(!fs.existsSync(target), 'nothing left behind');
  assert.ok(free(mountPoint) > 60 * 1024 * 1024, 'nothing was written first');
});

// The store never meets the full disk itself (lib/db/disk-guard.ts): PGlite, refused a write inside a critical
// section, PANICs and its WASM spins forever (seen in CI: 100 % CPU, /api/health unanswered), and a refused
// write elsewhere left it answering wrongly (a 404 for an existing receiver). Each request below times out, so
// a store that stops answering fails the test instead of hanging it.

test('a full disk while the app runs: 503 with Retry-After, one line each way, backups back off, all acknowledged receipts kept', async (t) => {
  const mountPoint = smallDisk(t, '256m'); // room for the store, a backup's staging copy and the backup, once the filler goes
  if (!mountPoint) return;
  const dataDir = await storeOn(mountPoint);
  const backups = path.join(mountPoint, 'backups');
  const app: TApp = await startApp({ env: { DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: backups, BACKUP_EVERY: '1s', BACKUP_KEEP: '1' } });
  t.after(async () => {
    await app.stop();
    unmount(mountPoint);
  });
  const cookie = await staffCookie(app);
  const created = await call(app, 'POST', '/api/receivers', { headers: { cookie }, body: { name: 'full disk' } });
  assert.equal(created.status, 201, created.text);
  const ingest = () =>
    fetch(`${app.baseUrl}/ingest/${created.body.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: randomBytes(256 * 1024).toString('base64'),
      signal: AbortSignal.timeout(15_000),
    });
  await eventually(async () => /scheduled backup written/.test(app.logs()), 30_000, 'a first scheduled backup');

  const filler = fill(mountPoint, 2 * 1024 * 1024);
  const acknowledged: string[] = [];
  let refused: Response | null = null;
  for (let i = 0; i < 60 && !refused; i++) {
    const res = await ingest();
    if (res.status === 200) acknowledged.push(res.headers.get('x-receipt-id')!);
    else refused = res;
  }
  assert.ok(refused, `a full disk refused a receipt (${acknowledged.length} stored first)`);
  assert.equal(refused.status, 503, await refused.clone().text());
  assert.equal(refused.headers.get('retry-after'), '5');
  assert.ok(free(mountPoint) > 0, 'refused before the disk was full: the store never met it');
  for (let i = 0; i < 5; i++) {
    const res = await ingest();
    if (res.status === 200) acknowledged.push(res.headers.get('x-receipt-id')!);
    else assert.equal(res.status, 503, 'only 2xx for what was stored, 503 otherwise');
  }
  await eventually(async () => /scheduled backup into .* failed/.test(app.logs()), 30_000, 'the scheduled backup failing on the full disk');
  assert.equal((await fetch(`${app.baseUrl}/api/health`)).status, 200, 'the app stays up');
  assert.equal(app.logs().match(/database unavailable \(/g)?.length, 1, 'one line when the store stops taking writes');
  assert.match(app.logs(), /database unavailable \(53100: the disk holding .* has [\d.]+ (MiB|KiB|bytes) free, less than the [\d.]+ MiB a write needs there/);
  assert.doesNotMatch(app.logs(), /No space left on device|PANIC/, 'the store itself never met the full disk');
  const seen = await call(app, 'GET', `/api/receivers/${created.body.id}/receipts`, { headers: { cookie } });
  assert.equal(seen.status, 200, `reads go on while writes wait: ${seen.text}`);
  assert.equal(app.logs().match(/scheduled backup into .* failed/g)?.length, 1, 'one line for the failing backups, however many attempts');
  assert.ok(!fs.readdirSync(dataDir).some((n) => n.startsWith('backup-staging-')), 'no staging copy left on the full disk');

  fs.rmSync(filler);
  await eventually(
    async () => {
      const res = await ingest();
      if (res.status === 200) acknowledged.push(res.headers.get('x-receipt-id')!);
      return res.status === 200;
    },
    30_000,
    'ingest taking receipts again, by itself',
  );
  await eventually(async () => /database available again after/.test(app.logs()), 30_000, 'the line that the store is back');
  await eventually(
    async () => /scheduled backup written .*\(working again after \d+ failed attempts?\)/.test(app.logs()),
    30_000,
    'backups working again',
  ).catch((err) => assert.fail(`${err}\n${app.logs()}`));
  assert.equal(app.logs().match(/database available again after/g)?.length, 1, 'one line when it ends');
  // The last look: the app stays stopped after it (a start, and more backups every second, for nothing).
  const rows = await withAppDb(app, (query) => query<{ id: string }>('select id::text from console.receipts'), { leaveStopped: true });
  const stored = new Set(rows.map((r) => r.id));
  assert.ok(
    acknowledged.every((id) => stored.has(id)),
    'every acknowledged receipt is kept',
  );
});
