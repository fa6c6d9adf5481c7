// @ci-one-store: CI runs this file in the embedded-store pass only (sign-in, sessions and pages; the same on any store).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIST_DIR } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// A one-time password (an admin's add or reset) must be changed at the first sign-in: until then
// every page sends the user to /account/password, every JSON route and server action answers 403
// (or the redirect), and their personal access tokens are refused; GET /api/session tells them why.
// Every password user changes their own password (the current one required, the rules of any
// password, at most 5 wrong guesses in 15 minutes); their other sessions end. A user who signs in
// only by single sign-on has no password to reset (tests/integration/oidc.test.ts signs one in).
// Migration 0024 (the flags) on a database of the previous release: tests/upgrade/password-change.ts.
// On the suite's shared app (tests/helpers/shared-app.ts) its users are its own: unique e-mails, so
// what it finds in the users list and the audit log is theirs; the seeded admin only adds and resets them.

let app: TSharedApp;
let admin = '';
const TAG = randomBytes(4).toString('hex');
/** A user of this file's own on the shared app. */
const email = (name: string) => `${name}-${TAG}@example.org`;

before(async () => {
  app = await sharedApp();
  admin = await staffCookie(app);
});
after(async () => {
  await app?.stop();
});

async function addUser(email: string, role = 'operator', signIn = 'password'): Promise<{ id: string; password: string }> {
  const res = await call(app, 'POST', '/api/users', { headers: { cookie: admin }, body: { email, role, signIn } });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.user.id, password: res.body.password };
}

async function signIn(email: string, password: string): Promise<{ cookie: string; mustChangePassword: boolean }> {
  const res = await call(app, 'POST', '/api/session', { body: { email, password } });
  assert.equal(res.status, 200, res.text);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('gc_console_session='))!
    .split(';')[0];
  return { cookie, mustChangePassword: res.body.mustChangePassword };
}

const change = (cookie: string, currentPassword: string, newPassword: string) =>
  call(app, 'POST', '/api/session/password', { headers: { cookie }, body: { currentPassword, newPassword } });

/** A server action of the build (by file and name) and a page that serves it. */
function actionId(file: string, name: string): { id: string; page: string } {
  const manifest = JSON.parse(fs.readFileSync(path.join(DIST_DIR, 'server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { workers: Record<string, unknown>; exportedName?: string; filename?: string }>;
  };
  for (const [id, entry] of Object.entries(manifest.node)) {
    const page = Object.keys(entry.workers).find((w) => w.endsWith('/page'));
    if (page && entry.filename === file && entry.exportedName === name) {
      return {
        id,
        page:
          page
            .replace(/^app/, '')
            .replace(/\/page$/, '')
            .replace(/\/\([^)]*\)/g, '')
            .replace(/\[[^\]]+\]/g, 'x') || '/',
      };
    }
  }
  throw new Error(`${file} ${name} is not in the build`);
}

describe('a one-time password', () => {
  test('opens nothing but its own change: pages, JSON routes, actions and tokens wait', async () => {
    const { password } = await addUser(email('first-day'));
    const first = await signIn(email('first-day'), password);
    assert.equal(first.mustChangePassword, true, 'the sign-in says so');

    const page = await call(app, 'GET', '/receivers?x=1', { headers: { cookie: first.cookie } });
    assert.ok([303, 307].includes(page.status), `a page redirects: ${page.status}`);
    assert.equal(page.headers.get('location'), `/account/password?next=${encodeURIComponent('/receivers?x=1')}`);
    const home = await call(app, 'GET', '/', { headers: { cookie: first.cookie } });
    assert.equal(home.headers.get('location'), '/account/password');

    for (const [method, url] of [
      ['GET', '/api/receivers'],
      ['GET', '/api/audit'],
      ['POST', '/api/receivers'],
      ['GET', '/api/tokens'],
    ] as const) {
      const res = await call(app, method, url, { headers: { cookie: first.cookie }, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
      assert.equal(res.status, 403, `${method} ${url}: ${res.text}`);
      assert.match(res.body.detail, /Change your one-time password first/);
    }
    const me = await call(app, 'GET', '/api/session', { headers: { cookie: first.cookie } });
    assert.equal(me.status, 200, 'who am I still answers, and says why');
    assert.equal(me.body.mustChangePassword, true);

    const action = actionId('app/(console)/actions.ts', 'switchEnvironmentAction');
    const acted = await fetch(`${app.baseUrl}${action.page}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'next-action': action.id, accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', origin: app.baseUrl, cookie: first.cookie },
      body: JSON.stringify(['sandbox']),
    });
    await acted.text();
    assert.match(
      acted.headers.get('x-action-redirect') ?? acted.headers.get('location') ?? '',
      /^\/account\/password/,
      'a server action is sent to change the password',
    );

    const form = await call(app, 'GET', '/account/password', { headers: { cookie: first.cookie } });
    assert.equal(form.status, 200);
    assert.match(form.text, /signed in with a one-time password/);

    // The rules of any password, and the one-time one proven.
    const wrong = await change(first.cookie, 'not-it-at-all', 'a-fine-password-1');
    assert.equal(wrong.status, 400);
    assert.deepEqual(
      wrong.body.errors.map((e: { path: string }) => e.path),
      ['currentPassword'],
    );
    const short = await change(first.cookie, password, 'short');
    assert.equal(short.status, 400);
    assert.match(short.body.detail, /at least 8 characters/);
    const same = await change(first.cookie, password, password);
    assert.equal(same.status, 400);
    assert.match(same.body.detail, /not the one-time password/);
    assert.equal((await call(app, 'GET', '/api/receivers', { headers: { cookie: first.cookie } })).status, 403, 'refused changes change nothing');

    assert.equal((await change(first.cookie, password, 'my-own-password-1')).status, 204);
    assert.equal((await call(app, 'GET', '/api/receivers', { headers: { cookie: first.cookie } })).status, 200, 'the same session goes on');
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: first.cookie } })).body.mustChangePassword, false);
    assert.equal((await call(app, 'POST', '/api/session', { body: { email: email('first-day'), password } })).status, 401, 'the one-time password is gone');
    assert.equal((await signIn(email('first-day'), 'my-own-password-1')).mustChangePassword, false);

    const users = await call(app, 'GET', '/api/users', { headers: { cookie: admin } });
    const row = users.body.results.find((u: { email: string }) => u.email === email('first-day'));
    assert.equal(row.mustChangePassword, false);
  });

  test('a reset makes the password one-time again, and holds the user’s personal access tokens until it is changed', async () => {
    const { id, password } = await addUser(email('reset-me'), 'operator');
    const cookie = await staffCookie(app, { email: email('reset-me'), password });
    const made = await call(app, 'POST', '/api/tokens', { headers: { cookie }, body: { name: 'laptop', expiresInDays: 7 } });
    assert.equal(made.status, 201, made.text);
    const receiver = await call(app, 'POST', '/api/receivers', { headers: { cookie: admin }, body: { name: 'Tokens' } });
    const stream = (token: string) =>
      fetch(`${app.baseUrl}/api/receivers/${receiver.body.id}/stream?after=0`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: AbortSignal.timeout(5000),
      });
    const open = await stream(made.body.token);
    assert.equal(open.status, 200);
    await open.body?.cancel();

    const reset = await call(app, 'POST', `/api/users/${id}/password`, { headers: { cookie: admin } });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.user.mustChangePassword, true);
    const held = await stream(made.body.token);
    assert.equal(held.status, 403);
    assert.match((await held.json()).detail, /must change their one-time password/);

    const again = await signIn(email('reset-me'), reset.body.password);
    assert.equal(again.mustChangePassword, true);
    assert.equal((await change(again.cookie, reset.body.password, 'after-reset-pw-1')).status, 204);
    const back = await stream(made.body.token);
    assert.equal(back.status, 200, 'the token works again once the password is the user’s own');
    await back.body?.cancel();
  });
});

describe('changing one’s own password', () => {
  test('needs the current password, ends the other sessions, keeps this one, and is audited', async () => {
    const { password } = await addUser(email('changer'), 'viewer');
    const here = await staffCookie(app, { email: email('changer'), password }); // changes the one-time one
    const mine = `${password}-own`;
    const elsewhere = (await signIn(email('changer'), mine)).cookie;
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: elsewhere } })).status, 200);

    const wrong = await change(here, 'nope-nope-nope', 'brand-new-password');
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.detail, /current password is wrong/);
    const unchanged = await change(here, mine, mine);
    assert.equal(unchanged.status, 400);
    assert.match(unchanged.body.detail, /is the current one/);
    const unknown = await call(app, 'POST', '/api/session/password', {
      headers: { cookie: here },
      body: { currentPassword: mine, newPassword: 'x'.repeat(10), extra: 1 },
    });
    assert.equal(unknown.status, 400, 'unknown fields are refused');

    assert.equal((await change(here, mine, 'brand-new-password')).status, 204);
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: here } })).status, 200, 'this session stays');
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: elsewhere } })).status, 401, 'the other session ended');
    assert.equal((await call(app, 'POST', '/api/session', { body: { email: email('changer'), password: mine } })).status, 401);
    await signIn(email('changer'), 'brand-new-password');

    const audit = await call(app, 'GET', `/api/audit?action=user.password.change&actor=${email('changer')}`, { headers: { cookie: admin } });
    assert.deepEqual(
      audit.body.results.map((r: { result: string }) => r.result),
      ['ok', 'bad_request', 'bad_request', 'ok'],
      'each attempt, newest first (the first is the one-time password’s change)',
    );
    assert.ok(!audit.text.includes('brand-new-password'), 'no password in the audit log');
    const page = await call(app, 'GET', '/account/password', { headers: { cookie: here } });
    assert.ok(page.text.includes(`Signed in as ${email('changer')}`), 'the page names who is signed in');
    const header = await call(app, 'GET', '/webhooks', { headers: { cookie: here } });
    assert.match(header.text, /href="\/account\/password"/, 'the header links to it');
  });

  test('guesses at the current password are limited: the sixth in 15 minutes is a 429', async () => {
    const { password } = await addUser(email('guessed'), 'viewer');
    const cookie = await staffCookie(app, { email: email('guessed'), password });
    for (let i = 0; i < 5; i++) assert.equal((await change(cookie, `guess-number-${i}`, 'whatever-else-1')).status, 400);
    const limited = await change(cookie, `${password}-own`, 'whatever-else-1');
    assert.equal(limited.status, 429, 'even the right one, once the window is full');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.match(limited.body.detail, /Too many attempts/);
  });

  test('a user who signs in only by single sign-on has no password to reset', async () => {
    const { id } = await addUser(email('sso-only'), 'viewer', 'sso');
    const reset = await call(app, 'POST', `/api/users/${id}/password`, { headers: { cookie: admin } });
    assert.equal(reset.status, 409, reset.text);
    assert.match(reset.body.detail, /single sign-on: there is no password to reset/);
    const page = await call(app, 'GET', '/users', { headers: { cookie: admin } });
    assert.ok(page.text.includes(`Reset the password of ${email('first-day')}`), 'a password user has the button');
    assert.ok(!page.text.includes(`Reset the password of ${email('sso-only')}`), 'an SSO-only user has none');
  });
});
