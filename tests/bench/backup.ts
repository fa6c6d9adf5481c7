// How long a backup of the embedded store takes with N receipts in it, and what it does to ingest
// meanwhile: `npx tsx tests/bench/backup.ts [receipts=1000000]` (after `npm run build`).
// Seeds a store with N receipts (~1 KiB JSON bodies, as the app stores them: body, body_json, words),
// starts the built app on it, measures ingest (4 senders, unsigned receipts, 200 each) for 15 s,
// then again while `npm run console -- backup` runs, and prints both with the backup's time and size.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { startApp, templateDb } from '../helpers/app';
import { SEEDED_HEADERS } from './seed-timeline';

const N = Number(process.argv[2] ?? 1_000_000);
const ROOT = path.resolve(import.meta.dirname, '../..');
const RECEIVER = '0193e0c0-0000-7000-8000-0000000bac00';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-bench-backup-'));
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gc-bench-backup-out-')), 'console.tar.gz');
// BENCH_BACKUP_SEEDED=<folder>: the seeded store is kept there and reused by the next run of the same N
// (`… backup.ts N seed-only` seeds it and stops, so the seeding need not run under the bench lock).
const SEEDED = process.env.BENCH_BACKUP_SEEDED ? path.resolve(process.env.BENCH_BACKUP_SEEDED, `receipts-${N}`) : null;
let t0 = Date.now();
if (SEEDED && fs.existsSync(path.join(SEEDED, 'pg', 'PG_VERSION'))) {
  fs.cpSync(SEEDED, dir, { recursive: true });
  console.log(`the store seeded with ${N} receipts copied from ${SEEDED}`);
} else await seed();
if (process.argv[3] === 'seed-only') {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  process.exit(0);
}
async function seed(): Promise<void> {
  fs.cpSync(await templateDb(), dir, { recursive: true });
  fs.rmSync(path.join(dir, 'owner.lock'), { force: true });
  const db = new PGlite(path.join(dir, 'pg'));
  await db.query(`insert into console.receivers (id, slug, name, secrets) values ('${RECEIVER}', 'bench-backup', 'bench backup', '{}')`);
  const payload = (i: string) =>
    `'{"type":"grant.succeeded","data":{"id":"grant_' || ${i} || '","amount":5000,"currency":"USD","donor":{"firstName":"Ada","lastName":"Lovelace","email":"ada' || ${i} || '@example.org"},"note":"` +
    'x'.repeat(700) +
    `"}}'`;
  for (let from = 0; from < N; from += 50_000) {
    const to = Math.min(N, from + 50_000);
    await db.exec(`insert into console.receipts (receiver_id, method, path, headers, body, body_size, verdict, response_status, host, message_id, body_json)
      select '${RECEIVER}', 'POST', '/ingest/bench-backup', '${SEEDED_HEADERS}'::jsonb, convert_to(p, 'UTF8'), octet_length(p), 'valid', 200, '127.0.0.1', 'msg_' || i, p::jsonb
      from (select i, ${payload('i::text')} as p from generate_series(${from + 1}, ${to}) i) s`);
    console.log(`seeding: ${to} of ${N} receipts after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  await db.exec('vacuum analyze console.receipts');
  await db.close();
  console.log(`seeded ${N} receipts in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (SEEDED) fs.cpSync(dir, SEEDED, { recursive: true });
}
const sizeMiB = (d: string): number => {
  let total = 0;
  for (const f of fs.readdirSync(d, { recursive: true }).map(String)) {
    const st = fs.statSync(path.join(d, f));
    if (st.isFile()) total += st.size;
  }
  return total / 1024 / 1024;
};
console.log(`store ${sizeMiB(path.join(dir, 'pg')).toFixed(0)} MiB`);

const app = await startApp({ env: { DATA_DIR: dir, DATABASE_URL: '', WORKER_IN_PROCESS: 'false' } });
const body = JSON.stringify({ type: 'grant.succeeded', data: { amount: 5000, note: 'y'.repeat(700) } });
async function ingestFor(stop: () => boolean): Promise<{ n: number; seconds: number; p50: number; p99: number; max: number; non2xx: number }> {
  const lat: number[] = [];
  let non2xx = 0;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stop()) {
        const s = performance.now();
        const res = await fetch(`${app.baseUrl}/ingest/bench-backup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer();
        lat.push(performance.now() - s);
        if (res.status >= 300) non2xx++;
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0;
  return { n: lat.length, seconds: (Date.now() - start) / 1000, p50: q(0.5), p99: q(0.99), max: lat.at(-1) ?? 0, non2xx };
}
const fmt = (r: Awaited<ReturnType<typeof ingestFor>>) =>
  `${(r.n / r.seconds).toFixed(0)} receipts/s over ${r.seconds.toFixed(1)} s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms, non-2xx ${r.non2xx}`;
try {
  const baseEnd = Date.now() + 15_000;
  const base = await ingestFor(() => Date.now() > baseEnd);
  console.log(`ingest alone:          ${fmt(base)}`);
  let done = false;
  t0 = Date.now();
  const backup = new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/console-cli.ts'), 'backup', '--out', out],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' } },
      (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout.split('\n')[0])),
    ),
  ).finally(() => (done = true));
  const during = await ingestFor(() => done);
  const line = await backup;
  console.log(`ingest during backup:  ${fmt(during)}`);
  console.log(`backup: ${((Date.now() - t0) / 1000).toFixed(1)} s, ${(fs.statSync(out).size / 1024 / 1024).toFixed(0)} MiB — ${line}`);
  const held = /(?:snapshot in|statements waited) ([\d.]+) s.*/;
  for (let i = 0; i < 50 && !held.test(app.logs()); i++) await new Promise((r) => setTimeout(r, 100));
  console.log(`statements waited for the snapshot: ${held.exec(app.logs())?.[1] ?? '?'} s — the app's log line: ${held.exec(app.logs())?.[0] ?? '?'}`);
} finally {
  await app.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
}
