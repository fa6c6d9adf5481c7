// Own app: it runs the README and the guide as a newcomer would: generated first credentials, the sandbox's grants.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CREDENTIAL_SETTINGS, startApp } from '../helpers/app';
import { call, eventually, staffCookie } from '../helpers/http';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// The quick start as a fresh clone meets it: `npm start` with no credential settings generates the
// first admin's one-time password and the sandbox client's secret, prints them once and files them;
// the shell walkthrough (docs/GUIDE.md, "First steps from a shell") runs as written with them (if it
// drifts, this fails); a restart prints them no more, and the console still reaches its service.

const ROOT = path.resolve(import.meta.dirname, '../..');
const NEW_PASSWORD = 'chosen-at-first-sign-in-1';
const PUBLISHED = { admin: 'console-admin-123', secret: 'sandbox-secret-change-me' };
let app: Awaited<ReturnType<typeof startApp>>;
let webhookId = ''; // the walkthrough's, read again after the restart
before(async () => {
  // As `npm start` on a fresh clone: no credential settings at all, and deliveries to private and
  // loopback addresses refused (its default): the walkthrough's webhook reaches this app's own receiver.
  app = await startApp({ unsetEnv: [...CREDENTIAL_SETTINGS, 'DELIVERY_ALLOW_PRIVATE'] });
});
after(() => app?.stop());

const credentialsFile = () => path.join(app.env.DATA_DIR, 'initial-credentials');
/** The KEY=value lines of the credentials file, as a shell sourcing it sees them. */
function filed(): Record<string, string> {
  const text = fs.readFileSync(credentialsFile(), 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
const exchange = (secret: string) =>
  call(app, 'POST', '/oauth/token', {
    body: { client_id: 'sandbox-client', client_secret: secret, audience: 'https://api.giving-connect.test', grant_type: 'client_credentials' },
  });
const consoleCheck = (logs: string) => logs.split('\n').find((l) => l.startsWith('Console sandbox:'));

test('the first start with no credential settings generates the admin password and the sandbox secret, prints them once and files them (0600)', async () => {
  const values = filed();
  assert.equal(fs.statSync(credentialsFile()).mode & 0o777, 0o600);
  assert.equal(values.CONSOLE_ADMIN_EMAIL, 'admin@example.org');
  assert.match(values.CONSOLE_ADMIN_PASSWORD, /^[A-Za-z0-9]{20}$/);
  assert.equal(values.SANDBOX_CLIENT_ID, 'sandbox-client');
  assert.match(values.SANDBOX_CLIENT_SECRET, /^[A-Za-z0-9]{48}$/);
  const banner = await eventually(async () => (app.logs().includes('  the console talks to') ? app.logs() : undefined), 10_000, 'the banner');
  assert.ok(
    banner.includes(
      `  console          ${app.baseUrl}/  (sign in as admin@example.org / ${values.CONSOLE_ADMIN_PASSWORD}, a one-time password: the first sign-in asks for a new one)`,
    ),
    banner,
  );
  assert.ok(banner.includes(`\n  client_secret    ${values.SANDBOX_CLIENT_SECRET}\n`), banner);
  assert.ok(
    banner.includes("\n  deliveries       to public addresses and this app's own receivers only (DELIVERY_ALLOW_PRIVATE=false, the default of npm start)\n"),
    banner,
  );
  assert.ok(
    banner.includes(`\n  credentials      generated at this first start and written to ${credentialsFile()} (mode 0600): later starts do not print them\n`),
    banner,
  );
  // The published ones of earlier releases open nothing.
  assert.equal((await exchange(PUBLISHED.secret)).status, 401);
  assert.equal((await call(app, 'POST', '/api/session', { body: { email: 'admin@example.org', password: PUBLISHED.admin } })).status, 401);
  // The console reaches its own service as the sandbox client, with the secret kept in the database.
  const checked = await eventually(async () => consoleCheck(app.logs()), 15_000, 'the start check of the sandbox');
  assert.equal(checked, `Console sandbox: token exchange at ${app.baseUrl}/oauth/token works (client_id sandbox-client).`);
});

test("the guide's shell walkthrough, with what the first start filed: a forced password change, then a grant whose grant.succeeded arrives signed and verified", async () => {
  const readme = fs.readFileSync(path.join(ROOT, 'docs/GUIDE.md'), 'utf8');
  const block = /```sh\n(BASE=[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'docs/GUIDE.md has the walkthrough block');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block], {
    env: { ...process.env, BASE: app.baseUrl, DATA_DIR: app.env.DATA_DIR, NEW_PASSWORD },
    // About fifteen curl and node processes one after another: 5-10 s quiet, but a CI pass beside two
    // others ran it past 60 s (load ~25, killed mid-walkthrough while nothing was wrong).
    timeout: 180_000,
  });
  const lines = stdout.trim().split('\n');
  assert.equal(lines[0], 'true', 'the first sign-in must change the one-time password');
  assert.match(lines[1], /^GC-[A-Z0-9]{6}$/, 'the tracking id');
  assert.equal(lines[2], 'success');
  assert.equal(lines[3], '200');
  const ep = /webhooks\/(ep_\w+)/.exec(lines[4])?.[1];
  assert.ok(ep, stdout);

  // …and the console joined it with what its receiver stored: verified.
  const cookie = await staffCookie(app, { email: 'admin@example.org', password: NEW_PASSWORD });
  const timeline = await call(app, 'GET', `/api/webhooks/${ep}/timeline`, { headers: { cookie } });
  assert.equal(timeline.status, 200, timeline.text);
  const [message] = timeline.body.messages;
  assert.equal(message.reconciliation, 'delivered-and-received');
  assert.equal(message.receipts[0].verdict, 'valid');
  webhookId = ep;
});

test('a restart generates and prints nothing again: the banner points to the file, and the console still reaches its service', async () => {
  const before = fs.readFileSync(credentialsFile(), 'utf8');
  const { CONSOLE_ADMIN_PASSWORD: password, SANDBOX_CLIENT_SECRET: secret } = filed();
  const from = app.logs().length;
  await app.restart();
  const since = () => app.logs().slice(from);
  await eventually(async () => since().includes('  the console talks to'), 10_000, 'the banner after the restart');
  const checked = await eventually(async () => consoleCheck(since()), 15_000, 'the start check after the restart');
  assert.equal(checked, `Console sandbox: token exchange at ${app.baseUrl}/oauth/token works (client_id sandbox-client).`);
  // The walkthrough chose a new password: the filed one-time one is spent, and the banner says so rather than point at it.
  assert.ok(
    since().includes(`(sign in as admin@example.org with the password chosen at its first sign-in; the one-time one in ${credentialsFile()} is spent)`),
    since(),
  );
  assert.ok(since().includes(`\n  client_secret    in ${credentialsFile()}\n`), since());
  assert.ok(!since().includes(password) && !since().includes(secret), 'neither is printed again');
  assert.equal(fs.readFileSync(credentialsFile(), 'utf8'), before, 'nothing generated again');
  assert.equal((await exchange(secret)).status, 200, 'the filed secret still exchanges');
  const cookie = await staffCookie(app, { email: 'admin@example.org', password: NEW_PASSWORD });
  if (webhookId)
    assert.equal((await call(app, 'GET', `/api/webhooks/${webhookId}/timeline`, { headers: { cookie } })).status, 200, 'the console reads its service');
});

test('an upgraded store whose admin still has the published password of earlier releases opens with a one-time password instead, and whoever signed in with the old one is out', async () => {
  // The admin's password set back to the published one, as a store of an earlier release holds it
  // (the running app does it: the CLI reaches the embedded store through it), and a session made with it.
  const set = await new Promise<{ code: number; err: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/console-cli.ts'), 'users:password', '--email', 'admin@example.org', '--password-stdin'],
      { cwd: ROOT, env: { ...process.env, ...app.env } },
      (error, _out, err) => resolve({ code: error ? 1 : 0, err }),
    );
    child.stdin!.end(`${PUBLISHED.admin}\n`);
  });
  assert.equal(set.code, 0, set.err);
  const signedIn = await call(app, 'POST', '/api/session', { body: { email: 'admin@example.org', password: PUBLISHED.admin } });
  assert.equal(signedIn.status, 200, signedIn.text);
  const stolen = String(signedIn.headers.get('set-cookie')).split(';')[0];
  assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: stolen } })).status, 200);

  const from = app.logs().length;
  await app.restart();
  const since = () => app.logs().slice(from);
  const banner = await eventually(async () => (since().includes('  the console talks to') ? since() : undefined), 10_000, 'the banner after the restart');
  const password =
    /sign in as admin@example\.org \/ ([A-Za-z0-9]{20}), a one-time password that replaced the published default of earlier releases \(its sessions ended\)/.exec(
      banner,
    )?.[1];
  assert.ok(password, banner);
  assert.ok(banner.includes(`\n  credentials      generated at this start and written to ${credentialsFile()} (mode 0600)`), banner);
  assert.equal(filed().CONSOLE_ADMIN_PASSWORD, password, 'filed, the last line of its key winning as a shell sources it');
  assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: stolen } })).status, 401, 'the session made with the published password ended');
  assert.equal((await call(app, 'POST', '/api/session', { body: { email: 'admin@example.org', password: PUBLISHED.admin } })).status, 401);
  const fresh = await call(app, 'POST', '/api/session', { body: { email: 'admin@example.org', password } });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.mustChangePassword, true);
  // Replaced once: the next start finds nothing published and prints no password.
  const again = app.logs().length;
  await app.restart();
  await eventually(async () => app.logs().slice(again).includes('  the console talks to'), 10_000, 'the banner after the second restart');
  assert.ok(!app.logs().slice(again).includes(password), 'not printed again');
  // Not yet changed: the banner points at the file, where the one-time password is.
  assert.ok(app.logs().slice(again).includes(`(sign in as admin@example.org: its one-time password is in ${credentialsFile()})`), app.logs().slice(again));
});
