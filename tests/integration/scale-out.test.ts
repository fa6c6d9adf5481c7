// Own app: several instances on one store, restarted (an older release's two active keys: tests/upgrade/scale-out.ts).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { createPgDatabase, CREDENTIAL_SETTINGS, dropPgDatabase, queryAppDb, startApp, type TApp } from '../helpers/app';
import { call, eventually, token } from '../helpers/http';

// Several service instances are one deployment: they share the token issuer (TOKEN_ISSUER) and
// one active signing key, however they start.

const ISSUER = 'http://gc-deployment.test/';

const issOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).iss;

async function accepts(app: TApp, jwt: string): Promise<boolean> {
  const res = await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: jwt });
  assert.ok(res.status === 200 || res.status === 401, res.text);
  return res.status === 200;
}

test("two concurrent first starts on one PostgreSQL: one active signing key, and each accepts the other's tokens", async (t) => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return t.skip('needs PostgreSQL: TEST_DATABASE_URL=postgres://… (instances share one database)');
  const url = await createPgDatabase(adminUrl, 'gc_test_scale');
  const apps: TApp[] = [];
  t.after(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await dropPgDatabase(url);
  });
  const shared = { DATABASE_URL: url, TOKEN_ISSUER: ISSUER };
  apps.push(...(await Promise.all([startApp({ env: shared }), startApp({ env: shared })])));
  const [a, b] = apps;
  assert.notEqual(a.baseUrl, b.baseUrl, 'two instances, two PUBLIC_URLs');

  const keys = await queryAppDb<{ active: number; total: number }>(
    a,
    'select count(*) filter (where retired_at is null)::int as active, count(*)::int as total from service.signing_keys',
  );
  assert.deepEqual(keys, [{ active: 1, total: 1 }]);

  const fromA = await token(a);
  const fromB = await token(b);
  assert.equal(issOf(fromA), ISSUER);
  assert.equal(issOf(fromB), ISSUER);
  assert.equal(await accepts(b, fromA), true, "B accepts A's token");
  assert.equal(await accepts(a, fromB), true, "A accepts B's token");

  // The database itself refuses a second active key, whatever code tries.
  await assert.rejects(
    queryAppDb(a, `insert into service.signing_keys (kid, private_jwk, public_jwk) values ('second', '{}', '{}')`),
    /signing_keys_one_active/,
  );
});

test('two concurrent first starts with no credential settings make one admin password and one sandbox secret: one prints and files them, the other names that file; both consoles reach the service with it', async (t) => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return t.skip('needs PostgreSQL: TEST_DATABASE_URL=postgres://… (instances share one database)');
  const url = await createPgDatabase(adminUrl, 'gc_test_creds');
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'gc-creds-')));
  const apps: TApp[] = [];
  t.after(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await dropPgDatabase(url);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  // Each instance its own DATA_DIR (another machine, as far as the file goes), one database.
  apps.push(
    ...(await Promise.all(dirs.map((dir) => startApp({ env: { DATABASE_URL: url, TOKEN_ISSUER: ISSUER, DATA_DIR: dir }, unsetEnv: CREDENTIAL_SETTINGS })))),
  );
  const made = dirs.map((dir) => path.join(dir, 'initial-credentials')).map((file) => (fs.existsSync(file) ? file : null));
  assert.equal(made.filter(Boolean).length, 1, `exactly one instance made and filed them: ${made}`);
  const maker = made[0] ? 0 : 1;
  const file = made[maker]!;
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const values = Object.fromEntries(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split('=')),
  );
  const [mine, other] = [apps[maker], apps[1 - maker]];
  for (const app of apps) await eventually(async () => app.logs().includes('  the console talks to'), 10_000, 'the banner');
  assert.ok(mine.logs().includes(`  client_secret    ${values.SANDBOX_CLIENT_SECRET}\n`), mine.logs());
  assert.ok(mine.logs().includes(`/ ${values.CONSOLE_ADMIN_PASSWORD}, a one-time password`), mine.logs());
  assert.ok(other.logs().includes(`  client_secret    in ${file}\n`), other.logs());
  assert.ok(
    !other.logs().includes(values.SANDBOX_CLIENT_SECRET) && !other.logs().includes(values.CONSOLE_ADMIN_PASSWORD),
    'printed once, by the one that made them',
  );
  for (const app of apps) {
    const line = await eventually(
      async () =>
        app
          .logs()
          .split('\n')
          .find((l) => l.startsWith('Console sandbox:')),
      15_000,
      'the start check',
    );
    assert.equal(
      line,
      `Console sandbox: token exchange at ${app.baseUrl}/oauth/token works (client_id sandbox-client).`,
      'each console reaches its service with the one stored secret',
    );
    const session = await call(app, 'POST', '/api/session', { body: { email: 'admin@example.org', password: values.CONSOLE_ADMIN_PASSWORD } });
    assert.equal(session.status, 200, session.text);
    assert.equal(session.body.mustChangePassword, true);
  }
  const users = await queryAppDb<{ n: number }>(mine, 'select count(*)::int as n from console.users');
  assert.deepEqual(users, [{ n: 1 }], 'one admin');
});

test('processes racing for the very first key at one instant all get the same one', async (t) => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return t.skip('needs PostgreSQL: TEST_DATABASE_URL=postgres://…');
  const url = await createPgDatabase(adminUrl, 'gc_test_race');
  t.after(() => dropPgDatabase(url));
  const at = String(Date.now() + 4000); // after every process has opened the database
  const racer = path.resolve(import.meta.dirname, '../helpers/first-signing-key.ts');
  const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', racer, at], { env: { ...process.env, DATABASE_URL: url } });
  const kids = (await Promise.all([run(), run(), run()])).map((r) => r.stdout.trim().split('\n').pop());
  assert.equal(new Set(kids).size, 1, kids.join(', '));
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('select kid from service.signing_keys');
  await client.end();
  assert.deepEqual(
    rows.map((r) => r.kid),
    [kids[0]],
  );
});

test('instances with different issuers are different deployments: tokens do not cross', async (t) => {
  const a = await startApp();
  t.after(() => a.stop());
  const other = await token(a);
  await a.restart({ TOKEN_ISSUER: ISSUER });
  assert.equal(await accepts(a, other), false, 'a token of another issuer is refused');
  assert.equal(await accepts(a, await token(a)), true);
});
