import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, staffCookie } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: the theme is one column read with the session; the same on any store.
// Each staff member's theme (system / light / dark, console.users.theme, migration 0028): set with
// PATCH /api/session (the header's control uses a server action over the same function), rendered
// by the server as the class of <html> on every console page, so the first paint is in it; "system"
// renders no class (the stylesheet's prefers-color-scheme decides). The donor's page follows the
// system whoever opens it. A database of the previous release opens with every user on "system"
// (tests/upgrade/staff-theme.ts).

let app: TSharedApp;
let admin = '';
before(async () => {
  app = await sharedApp();
  admin = await staffCookie(app);
});
after(async () => {
  await app?.stop();
});

/** The class attribute of the page's <html> element ('' for none). */
function htmlClass(html: string): string {
  const tag = /<html\b[^>]*>/.exec(html)?.[0] ?? '';
  assert.ok(tag, 'the page has an <html> element');
  return /\bclass="([^"]*)"/.exec(tag)?.[1] ?? '';
}

/** A staff member of this file's own (the shared app's admin stays untouched), signed in. */
async function ownStaff(role = 'viewer'): Promise<string> {
  const email = `theme-${randomBytes(4).toString('hex')}@example.org`;
  const added = await call(app, 'POST', '/api/users', { headers: { cookie: admin }, body: { email, role, signIn: 'password' } });
  assert.equal(added.status, 201, added.text);
  return staffCookie(app, { email, password: added.body.password });
}

describe("a staff member's theme", () => {
  test('starts at system (no class), is stored per staff member, and every console page is rendered in it', async () => {
    const me = await ownStaff();
    const other = await ownStaff('operator');
    const session = await call(app, 'GET', '/api/session', { headers: { cookie: me } });
    assert.equal(session.body.theme, 'system');
    assert.equal(htmlClass((await call(app, 'GET', '/webhooks', { headers: { cookie: me } })).text), '');

    const set = await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'dark' } });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.theme, 'dark');
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: me } })).body.theme, 'dark');
    for (const path of ['/', '/webhooks', '/receivers', '/cases', '/problems']) {
      const page = await call(app, 'GET', path, { headers: { cookie: me } });
      assert.equal(page.status, 200, `${path}: ${page.status}`);
      assert.equal(htmlClass(page.text), 'dark', `${path} is rendered dark`);
    }
    assert.equal(htmlClass((await call(app, 'GET', '/webhooks', { headers: { cookie: other } })).text), '', 'another staff member keeps their own');

    assert.equal((await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'light' } })).status, 200);
    assert.equal(htmlClass((await call(app, 'GET', '/webhooks', { headers: { cookie: me } })).text), 'light', 'light overrides a dark system');
  });

  test('a theme this release does not know, or anything else in the body, is refused and changes nothing', async () => {
    const me = await ownStaff();
    assert.equal((await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'dark' } })).status, 200);
    assertProblem(
      await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'sepia' } }),
      400,
      /^Invalid body: theme: must be one of system, light, dark\.$/, // the field named once, one full stop
    );
    assertProblem(await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'light', role: 'admin' } }), 400, /role/);
    assertProblem(await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: {} }), 400, /theme/);
    const session = await call(app, 'GET', '/api/session', { headers: { cookie: me } });
    assert.deepEqual([session.body.theme, session.body.role], ['dark', 'viewer']);
    const anonymous = await call(app, 'PATCH', '/api/session', { body: { theme: 'dark' } });
    assert.equal(anonymous.status, 401);
  });

  test('the sign-in page and the donor page follow the system, even for a signed-in staff member with a theme', async () => {
    const me = await ownStaff();
    assert.equal((await call(app, 'PATCH', '/api/session', { headers: { cookie: me }, body: { theme: 'dark' } })).status, 200);
    assert.equal(htmlClass((await call(app, 'GET', '/login')).text), '');
    const donor = await call(app, 'GET', '/connect/test_doesnotexist0000000000000000', { headers: { cookie: me } });
    assert.equal(donor.status, 404);
    assert.equal(htmlClass(donor.text), '', "the donor's pages follow the system, whoever opens them");
  });
});
