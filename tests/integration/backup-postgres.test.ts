// Own app: it backs up one PostgreSQL database and restores into another, then starts apps on each.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { runCli, startApp } from '../helpers/app';
import { newSecret, ROOT, signedIngest } from '../helpers/backup-cli';
import { call, staffCookie } from '../helpers/http';
import { postgresBinDir, startScratchPostgres } from '../helpers/scratch-postgres';

// On PostgreSQL (DATABASE_URL) the operator's own backups cover the app: its three schemas
// (service, console, and drizzle's record of the migrations) dumped with pg_dump and brought back
// with pg_restore into a new database, on which the app starts with everything — the commands
// docs/OPERATIONS.md gives. The console's own `backup` command says so rather than half-doing it.

const run = promisify(execFile);

test('PostgreSQL: a pg_dump of the app schemas restored with pg_restore into a new database brings everything back', async (t) => {
  const bin = postgresBinDir();
  if (!bin || !fs.existsSync(path.join(bin, 'pg_dump'))) {
    console.warn('SKIPPED: no PostgreSQL server binaries (initdb, pg_dump) on this machine: the pg_dump restore test did not run');
    return t.skip('needs PostgreSQL server binaries');
  }
  const pg = await startScratchPostgres(bin);
  t.after(() => pg.destroy());
  const admin = (await import('pg')).default;
  const createDb = async (name: string) => {
    const c = new admin.Client({ connectionString: pg.url() });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
  };
  await createDb('console_live');
  const app = await startApp({ env: { DATABASE_URL: pg.url('console_live') } });
  t.after(() => app.stop());

  const refused = await run(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts/console-cli.ts'), 'backup', '--out', path.join(os.tmpdir(), 'never.tar.gz')],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: pg.url('console_live') },
    },
  ).then(
    () => assert.fail('backup on PostgreSQL should refuse'),
    (err: { code: number; stderr: string }) => err,
  );
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /pg_dump --format=custom --schema=service --schema=console --schema=drizzle/);

  const cookie = await staffCookie(app);
  const secret = newSecret();
  const created = await call(app, 'POST', '/api/receivers', { headers: { cookie }, body: { name: 'on postgres', secret } });
  assert.equal(created.status, 201, created.text);
  const colleague = JSON.parse(await runCli('console-cli', ['users:add', '--email', 'pg-colleague@example.org'], { DATABASE_URL: pg.url('console_live') }))
    .password as string;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await signedIngest(app, created.body.slug, secret, JSON.stringify({ i }));
    assert.equal(res.status, 200);
    ids.push(res.headers.get('x-receipt-id')!);
  }

  // The documented commands, while the app runs.
  const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gc-pgdump-')), 'console.dump');
  t.after(() => fs.rmSync(path.dirname(dump), { recursive: true, force: true }));
  await run(path.join(bin, 'pg_dump'), [
    '--format=custom',
    '--schema=service',
    '--schema=console',
    '--schema=drizzle',
    `--file=${dump}`,
    pg.url('console_live'),
  ]);
  await createDb('console_restored');
  await run(path.join(bin, 'pg_restore'), ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${pg.url('console_restored')}`, dump]);

  const copy = await startApp({ env: { DATABASE_URL: pg.url('console_restored') } });
  t.after(() => copy.stop());
  assert.ok(await staffCookie(copy, { email: 'pg-colleague@example.org', password: colleague }), 'the staff user came back');
  const copyCookie = await staffCookie(copy);
  const res = await signedIngest(copy, created.body.slug, secret, JSON.stringify({ after: 'restore' }));
  assert.equal(res.status, 200);
  const receipt = await call(copy, 'GET', `/api/receipts/${res.headers.get('x-receipt-id')}`, { headers: { cookie: copyCookie } });
  assert.equal(receipt.body.verdict, 'valid', 'the receiver secret came back');
  for (const id of ids)
    assert.equal((await call(copy, 'GET', `/api/receipts/${id}`, { headers: { cookie: copyCookie } })).status, 200, `receipt ${id} came back`);
  assert.doesNotMatch(copy.logs(), /migrat.*(fail|error)/i);

  // The CLI names the database it changed, its password masked (trust auth here: the password is
  // ignored, so a made-up one shows the masking), and warns when the app on PORT serves another.
  const withPassword = (db: string) => pg.url(db).replace('postgres@', 'postgres:pw-never-shown@');
  const cliOn = (db: string, port: number) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/console-cli.ts'), 'users:list'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: withPassword(db), PORT: String(port) },
    });
  const masked = (db: string) => `PostgreSQL ${withPassword(db).replace('pw-never-shown', '****')}`;
  const same = await cliOn('console_restored', copy.port);
  assert.equal(
    same.stderr.trim(),
    `Store: ${masked('console_restored')}; this process did the work (the app on port ${copy.port} serves this database and sees it at once).`,
  );
  const other = await cliOn('console_restored', app.port);
  assert.deepEqual(other.stderr.trim().split('\n'), [
    `Store: ${masked('console_restored')}; this process did the work (on PostgreSQL the CLI works on the database itself).`,
    `Warning: the app answering on port ${app.port} serves another store, not ${masked('console_restored')}: it does not see this. Run the command with that app's DATA_DIR (or DATABASE_URL), or start the app on this one.`,
  ]);
  assert.ok(!`${same.stdout}${same.stderr}${other.stdout}${other.stderr}`.includes('pw-never-shown'), 'the password is never printed');
});
