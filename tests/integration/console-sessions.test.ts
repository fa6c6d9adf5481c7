import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN } from '../helpers/app';
import { call } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (sessions and their cookies are the
// same on any store).
// Staff sessions end for real: signing out deletes the server-side row, so a copy of the cookie is
// worthless; a cookie that cannot be read is "not signed in", never a 5xx. (A database made before
// server-side sessions: tests/upgrade/console-sessions.ts.)

let app: TSharedApp;
before(async () => {
  app = await sharedApp();
});
after(async () => {
  await app?.stop();
});

async function signIn(): Promise<string> {
  const res = await call(app, 'POST', '/api/session', { body: ADMIN });
  assert.equal(res.status, 200, res.text);
  return res.headers.getSetCookie()[0].split(';')[0];
}

const as = (cookie: string, method: string, path: string) => call(app, method, path, { headers: { cookie } });

test('signing out revokes the session server-side: the copied cookie stops working; other sessions stay', async () => {
  const first = await signIn();
  const second = await signIn();
  assert.equal((await as(first, 'GET', '/api/session')).status, 200);
  assert.equal((await as(second, 'GET', '/api/session')).status, 200);

  const out = await as(first, 'DELETE', '/api/session');
  assert.equal(out.status, 204);
  const replay = await as(first, 'GET', '/api/session');
  assert.equal(replay.status, 401, 'the cookie kept from before the sign-out is refused');
  assert.match(replay.headers.get('www-authenticate') ?? '', /Session/);
  const page = await as(first, 'GET', '/webhooks');
  assert.equal(page.status, 307);
  assert.match(page.headers.get('location') ?? '', /\/login/);

  assert.equal((await as(second, 'GET', '/api/session')).status, 200, 'another sign-in of the same user is untouched');
});

test('a cookie that cannot be read is not signed in, never a 5xx', async () => {
  const values = ['garbage', '%E0%A4%A', 'Fe26.2**abc*def', 'a'.repeat(4000), '"x', '%00', 'Fe26.2*1*' + 'A'.repeat(300)];
  for (const value of values) {
    const cookie = `gc_console_session=${value}`;
    const api = await as(cookie, 'GET', '/api/webhooks/ep_x/timeline');
    assert.equal(api.status, 401, `${value.slice(0, 20)} → ${api.status}`);
    const page = await as(cookie, 'GET', '/problems');
    assert.equal(page.status, 307, `${value.slice(0, 20)} → ${page.status}`);
    const out = await as(cookie, 'DELETE', '/api/session');
    assert.equal(out.status, 204);
  }
});

test('the login page sends a signed-in user only to same-origin paths', async () => {
  const cookie = await signIn();
  for (const [next, expected] of [
    ['/cases/GC-7KQ2M9', '/cases/GC-7KQ2M9'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['https://evil.example', '/'],
  ] as const) {
    const res = await as(cookie, 'GET', `/login?next=${encodeURIComponent(next)}`);
    assert.equal(res.status, 307, `${JSON.stringify(next)} → ${res.status}`);
    assert.equal(new URL(res.headers.get('location')!, app.baseUrl).pathname + new URL(res.headers.get('location')!, app.baseUrl).search, expected);
  }
});
