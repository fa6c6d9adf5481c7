// Own app: the last active admin's rule needs an app whose one admin is the seeded one. The rest uses the shared app (its older release's users: tests/upgrade/roles.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import routeTable from '../../lib/http/route-table.json' with { type: 'json' };
import { DIST_DIR, freshDataDir, runCli, startApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// Roles, asked of the built app route by route. The matrix is made from lib/http/route-table.json:
// every staff route and method, and every server action, for no session and each role, gets
// exactly what its least role says (401 / the login page, 403, or an answer). A viewer is then
// shown the pages and JSON that hold a receiver's secret and a donor's e-mail: neither is in them,
// while an admin's copies have both (so the check can fail). Staff users: add, change role,
// deactivate (their session ends at once), reset a password, the last admin stays.
// On the suite's shared app (tests/helpers/shared-app.ts) other files' staff and receipts are there
// too: this file's admin, viewer and operator are its own (unique e-mails; its admin made by the
// seeded one, which it never changes), and so is its donor, so what it lists and audits is its own.
// @ci-one-store: CI runs this file in the embedded-store pass only (roles, masking and links are the same on any store).
// Run it with TEST_DATABASE_URL for PostgreSQL.

type TRole = 'viewer' | 'operator' | 'admin';
type TRoute = { path: string; methods: string[]; auth: string; kind: string; role?: TRole | Record<string, TRole> };
type TAction = { file: string; name: string; role: TRole | 'none' };
const ROUTES = routeTable.routes as TRoute[];
const ACTIONS = (routeTable as unknown as { actions: TAction[] }).actions;
const RANK = { none: -1, viewer: 0, operator: 1, admin: 2 } as const;
const WHO = ['none', 'viewer', 'operator', 'admin'] as const;

const SECRET = 'whsec_' + Buffer.from('roles-test-secret-0123456789ab').toString('base64');
const TAG = randomBytes(4).toString('hex');
const DONOR = `ada.lovelace.${TAG}@example.org`;
/** This file's staff on the shared app. */
const EMAIL = { admin: `roles-admin-${TAG}@example.org`, viewer: `roles-viewer-${TAG}@example.org`, operator: `roles-operator-${TAG}@example.org` };

let app: TSharedApp;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const as = (who: (typeof WHO)[number], method: string, url: string, body?: unknown) =>
  call(app, method, url, { headers: who === 'none' ? {} : { cookie: cookies[who] }, ...(body === undefined ? {} : { body }) });

before(async () => {
  app = await sharedApp();
  // This file's admin, made by the seeded one (every file's, which this file never changes); its
  // viewer and operator, made by its admin.
  cookies.admin = await staffCookie(app);
  for (const role of ['admin', 'viewer', 'operator'] as const) {
    const res = await as('admin', 'POST', '/api/users', { email: EMAIL[role], role });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.user.role, role);
    assert.match(res.body.password, /^[A-Za-z0-9]{20}$/, 'a one-time password, shown in this answer');
    ids[role] = res.body.user.id;
    cookies[role] = await staffCookie(app, { email: EMAIL[role], password: res.body.password });
  }
  const receiver = await as('admin', 'POST', '/api/receivers', { name: 'Roles', secret: SECRET });
  assert.equal(receiver.status, 201, receiver.text);
  ids.receiver = receiver.body.id;
  const body = JSON.stringify({ type: 'grant.succeeded', data: { firstName: 'Ada', lastName: 'Lovelace', email: DONOR, phone: '+1 555 0100' } });
  const ingest = await fetch(`${app.baseUrl}/ingest/${receiver.body.slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': `msg_roles${TAG}` },
    body,
  });
  assert.equal(ingest.status < 500, true);
  const receipts = await as('admin', 'GET', `/api/receivers/${ids.receiver}/receipts`);
  ids.receipt = String(receipts.body.results[0].id);
});
after(async () => {
  await app?.stop();
});

/** A concrete URL for a table path: the seeded receiver and receipt where they fit, made-up ids elsewhere. */
function urlOf(p: string): string {
  return p
    .replace(/^\/api\/receivers\/:id/, `/api/receivers/${ids.receiver}`)
    .replace(/^\/receivers\/:id/, `/receivers/${ids.receiver}`)
    .replace(/\/receipts\/:id/, `/receipts/${ids.receipt}`)
    .replace(/\/users\/:id/, '/users/00000000-0000-4000-8000-000000000000')
    .replace(/:q\b/, 'msg_nothing')
    .replace(/:msgId\b/, 'msg_nothing')
    .replace(/:id\b/, 'ep_nothing0000000000000000000');
}

const roleOf = (route: TRoute, method: string): TRole => (typeof route.role === 'string' ? route.role : (route.role?.[method] ?? 'viewer'));

describe('every staff route × {no session, viewer, operator, admin}', () => {
  const staffRoutes = ROUTES.filter((r) => r.auth === 'staff');
  test('the table gives every staff route a role', () => {
    for (const r of staffRoutes) for (const m of r.methods) assert.ok(['viewer', 'operator', 'admin'].includes(roleOf(r, m)), `${m} ${r.path}`);
  });
  test('each gets exactly what its least role says', async () => {
    const seen: string[] = [];
    for (const r of staffRoutes) {
      for (const method of r.methods) {
        const min = roleOf(r, method);
        for (const who of WHO) {
          const res = await as(who, method, urlOf(r.path), method === 'GET' || method === 'DELETE' ? undefined : {});
          const what = `${who} ${method} ${urlOf(r.path)} → ${res.status}`;
          seen.push(what);
          if (who === 'none') {
            if (r.kind === 'page') assert.equal(res.headers.get('location')?.includes('/login'), true, what);
            else assert.equal(res.status, 401, what);
          } else if (RANK[who] < RANK[min]) {
            assert.equal(res.status, 403, `${what}: needs ${min}`);
            if (r.kind === 'page') {
              assert.match(res.text, /Your role does not allow this/, what);
              // Whom the page is for, truly: the Staff page told an operator it was "for operators or admins".
              const whom = min === 'admin' ? 'admins' : 'operators and admins';
              assert.ok(
                res.text.includes(`This page is for ${whom}; you are signed in as a${who === 'viewer' ? '' : 'n'} ${who}.`),
                `${what}: ${/data-testid="forbidden-why"[^>]*>([^<]*)/.exec(res.text)?.[1]}`,
              );
            } else assert.match(res.headers.get('content-type') ?? '', /problem\+json/, what);
          } else {
            assert.ok(![401, 403].includes(res.status) && res.status < 500, `${what}: allowed (${min}) ${res.text.slice(0, 200)}`);
          }
        }
      }
    }
    assert.ok(seen.length >= staffRoutes.length * 4);
  });
});

test('a page whose query cannot be read: no session still goes to the login page; a reader gets the reason and a way back', async () => {
  for (const [url, words, back] of [
    ['/audit?since=yesterday', /These filters cannot be read/, 'href="/audit"'],
    ['/problems?since=yesterday', /This date range cannot be read/, 'href="/problems"'],
    ['/reconciliation?date=yesterday', /The reconciliation cannot be shown/, 'href="/reconciliation"'],
  ] as const) {
    const none = await as('none', 'GET', url);
    assert.ok(none.headers.get('location')?.includes('/login'), `${url} → ${none.status}`);
    assert.ok(!words.test(none.text), `${url}: nothing of the page before the login`);
    const viewer = await as('viewer', 'GET', url);
    assert.equal(viewer.status, 200, url);
    assert.match(viewer.text, words, url);
    assert.match(viewer.text, /since|date/, `${url}: the message names the parameter`);
    assert.ok(viewer.text.includes(back), `${url}: a way back`);
  }
});

/** The build's server actions by file and name: id and a page that serves them. */
function actionIds(): Map<string, { id: string; page: string }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(DIST_DIR, 'server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { workers: Record<string, unknown>; exportedName?: string; filename?: string }>;
  };
  const out = new Map<string, { id: string; page: string }>();
  for (const [id, entry] of Object.entries(manifest.node)) {
    const page = Object.keys(entry.workers).find((w) => w.endsWith('/page'));
    if (!page || !entry.filename || !entry.exportedName) continue;
    const url =
      page
        .replace(/^app/, '')
        .replace(/\/page$/, '')
        .replace(/\/\([^)]*\)/g, '')
        .replace(/\[[^\]]+\]/g, 'x') || '/';
    out.set(`${entry.filename}#${entry.exportedName}`, { id, page: url });
  }
  return out;
}

test('every server action × {no session, viewer, operator, admin} gets exactly what its least role says', async () => {
  const built = actionIds();
  for (const a of ACTIONS.filter((x) => x.role !== 'none')) {
    const found = built.get(`${a.file}#${a.name}`);
    assert.ok(found, `${a.file} ${a.name} is in the build`);
    for (const who of WHO) {
      const res: Response = await fetch(`${app.baseUrl}${found.page}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'next-action': found.id,
          accept: 'text/x-component',
          'content-type': 'text/plain;charset=UTF-8',
          origin: app.baseUrl,
          ...(who === 'none' ? {} : { cookie: cookies[who] }),
        },
        body: JSON.stringify(['ep_nothing0000000000000000000', 'msg_nothing']),
      });
      await res.text();
      const what = `${who} ${a.name} (${a.role}) → ${res.status}`;
      const toLogin = (res.headers.get('x-action-redirect') ?? res.headers.get('location') ?? '').includes('/login');
      if (who === 'none') assert.ok(toLogin, what);
      else if (RANK[who] < RANK[a.role]) assert.equal(res.status, 403, what);
      else assert.ok(res.status !== 403 && !toLogin, what);
    }
  }
});

describe('a viewer is never sent a secret or a donor’s e-mail', () => {
  const pages = () => [
    `/receivers/${ids.receiver}`,
    `/receipts/${ids.receipt}`,
    `/api/receivers`,
    `/api/receivers/${ids.receiver}`,
    `/api/receivers/${ids.receiver}/receipts`,
    `/api/receipts/${ids.receipt}`,
    `/api/receivers/${ids.receiver}/export`,
  ];
  test('pages and JSON show a viewer fingerprints and masked donors; an admin gets them whole', async () => {
    for (const url of pages()) {
      const viewer = await as('viewer', 'GET', url);
      assert.equal(viewer.status, 200, `${url}: ${viewer.text.slice(0, 200)}`);
      assert.ok(!viewer.text.includes(SECRET), `${url} sends a viewer the secret`);
      assert.ok(!viewer.text.includes(DONOR), `${url} sends a viewer the donor's e-mail`);
      assert.ok(!viewer.text.includes('Lovelace'), `${url} sends a viewer the donor's name`);
    }
    const masked = await as('viewer', 'GET', `/api/receipts/${ids.receipt}`);
    assert.match(masked.text, /a•••@example\.org/);
    assert.match((await as('viewer', 'GET', `/api/receivers/${ids.receiver}`)).text, /\[secret [0-9a-f]{8}…\]/);
    assert.ok((await as('admin', 'GET', `/api/receivers/${ids.receiver}`)).text.includes(SECRET));
    assert.ok((await as('admin', 'GET', `/api/receipts/${ids.receipt}`)).text.includes(DONOR));
    assert.ok((await as('operator', 'GET', `/receipts/${ids.receipt}`)).text.includes(DONOR));
  });
  test('a receiver’s secrets in full are for admins: an operator gets fingerprints, and sending one back keeps its secret', async () => {
    for (const url of [`/api/receivers`, `/api/receivers/${ids.receiver}`, `/receivers/${ids.receiver}`]) {
      const operator = await as('operator', 'GET', url);
      assert.equal(operator.status, 200, url);
      assert.ok(!operator.text.includes(SECRET), `${url} sends an operator the secret`);
      assert.ok((await as('admin', 'GET', url)).text.includes(SECRET), `${url} sends an admin the secret`);
    }
    const seen = (await as('operator', 'GET', `/api/receivers/${ids.receiver}`)).body.secrets as string[];
    assert.match(seen[0], /^\[secret [0-9a-f]{8}…\]$/);
    const other = 'whsec_' + Buffer.from('roles-test-second-secret-0123').toString('base64');
    const kept = await as('operator', 'PATCH', `/api/receivers/${ids.receiver}`, { secrets: [seen[0], other] });
    assert.equal(kept.status, 200, kept.text);
    assert.ok(!kept.text.includes(SECRET) && !kept.text.includes(other), 'the answer holds stand-ins only');
    const whole = (await as('admin', 'GET', `/api/receivers/${ids.receiver}`)).body.secrets;
    assert.deepEqual(whole, [SECRET, other], 'the stand-in kept the secret it stands for; the new one is saved whole');
    const stale = await as('operator', 'PATCH', `/api/receivers/${ids.receiver}`, { secrets: ['[secret 00000000…]'] });
    assert.equal(stale.status, 400);
    assert.match(stale.body.detail, /not a secret this receiver holds/);
    assert.deepEqual((await as('admin', 'GET', `/api/receivers/${ids.receiver}`)).body.secrets, [SECRET, other], 'a refused patch changes nothing');
    assert.equal((await as('admin', 'PATCH', `/api/receivers/${ids.receiver}`, { secrets: [SECRET] })).status, 200);
  });
  test('a search that found nothing offers no share link', async () => {
    const nothing = await as('operator', 'GET', '/cases/msg_nothing_at_all');
    assert.equal(nothing.status, 200);
    assert.match(nothing.text, /No message found/);
    assert.ok(!nothing.text.includes('Create share link'), 'nothing to share');
  });
  test('donor details in an export need an operator, and the export is audited', async () => {
    const url = `/api/receivers/${ids.receiver}/export?includeDonor=1`;
    const refused = await as('viewer', 'GET', url);
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.body.detail, /operators and admins/);
    const given = await as('operator', 'GET', url);
    assert.equal(given.status, 200);
    assert.ok(given.text.includes(DONOR));
    const audit = await as('admin', 'GET', `/api/audit?action=export&actor=${EMAIL.operator}`);
    assert.equal(audit.body.results[0].detail.includeDonor, true);
  });
});

describe('staff users', () => {
  test('the last active admin can be neither demoted nor deactivated', async () => {
    // An app of its own: on the shared app other files' admins are active too, so no admin there is the last.
    const own = await startApp();
    try {
      const cookie = await staffCookie(own);
      const mine = (method: string, url: string, body?: unknown) => call(own, method, url, { headers: { cookie }, body });
      const me = (await mine('GET', '/api/session')).body.userId as string;
      const demote = await mine('PATCH', `/api/users/${me}`, { role: 'viewer' });
      assert.equal(demote.status, 409, demote.text);
      assert.match(demote.body.detail, /last active admin/);
      assert.equal((await mine('PATCH', `/api/users/${me}`, { disabled: true })).status, 409);
      assert.equal((await mine('PATCH', `/api/users/${me}`, { role: 'owner' })).status, 400);
      assert.equal((await mine('GET', '/api/users')).body.results[0].role, 'admin', 'refused, it stays an admin');
    } finally {
      await own.destroy();
    }
  });

  test('a deactivated user is signed out at once; roles change on the next request; a reset ends the sessions', async () => {
    const me = (await as('admin', 'GET', '/api/session')).body.userId as string;
    assert.equal(me, ids.admin);
    assert.equal((await as('admin', 'PATCH', `/api/users/${me}`, { role: 'owner' })).status, 400);

    assert.equal((await as('operator', 'GET', '/api/session')).status, 200);
    const off = await as('admin', 'PATCH', `/api/users/${ids.operator}`, { disabled: true });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.disabled, true);
    assert.equal((await as('operator', 'GET', '/api/session')).status, 401, 'the deactivated user’s session ended');
    const again = await call(app, 'POST', '/api/session', { body: { email: EMAIL.operator, password: 'whatever-it-was' } });
    assert.equal(again.status, 401);

    const promoted = await as('admin', 'PATCH', `/api/users/${ids.viewer}`, { role: 'admin' });
    assert.equal(promoted.body.role, 'admin');
    assert.equal((await as('viewer', 'GET', '/api/users')).status, 200, 'the new role holds on the next request');
    assert.equal((await as('admin', 'PATCH', `/api/users/${me}`, { role: 'operator' })).status, 200, 'with another admin, the first may step down');
    assert.equal((await as('viewer', 'PATCH', `/api/users/${me}`, { role: 'admin' })).status, 200);

    const reset = await as('admin', 'POST', `/api/users/${ids.viewer}/password`);
    assert.equal(reset.status, 200);
    assert.equal((await as('viewer', 'GET', '/api/session')).status, 401, 'a reset ends the user’s sessions');
    cookies.viewer = await staffCookie(app, { email: EMAIL.viewer, password: reset.body.password });

    assert.equal((await as('admin', 'PATCH', `/api/users/${ids.operator}`, { disabled: false })).body.disabled, false);
    const back = await as('admin', 'POST', `/api/users/${ids.operator}/password`);
    cookies.operator = await staffCookie(app, { email: EMAIL.operator, password: back.body.password });

    assert.equal((await as('admin', 'PATCH', `/api/users/${ids.viewer}`, { role: 'viewer' })).body.role, 'viewer');

    const list = await as('admin', 'GET', '/api/users');
    const rows = new Map(list.body.results.map((u: { email: string }) => [u.email, u]));
    assert.deepEqual(rows.get(EMAIL.operator), {
      ...(rows.get(EMAIL.operator) as object),
      role: 'operator',
      disabled: false,
      signIn: 'password',
    });
    const audit = await as('admin', 'GET', `/api/audit?action=user.update&actor=${EMAIL.admin}`);
    assert.ok(
      audit.body.results.some((r: { detail: { role?: string } }) => r.detail.role === 'viewer → admin'),
      audit.text,
    );
  });
});

test('the CLI adds users with a role: admin for the first, viewer after', async () => {
  const env = await freshDataDir();
  const add = async (email: string, ...extra: string[]) => JSON.parse(await runCli('console-cli', ['users:add', '--email', email, ...extra], env)).role;
  assert.equal(await add('first@example.org'), 'admin');
  assert.equal(await add('second@example.org'), 'viewer');
});

describe('share links for a case', () => {
  test('an operator shares a case: it opens without login, masked, unframed, unindexed; revoked, it answers 410; all audited', async () => {
    for (const [expiresInHours, says] of [
      [0, 'must be between 1 and 168'],
      [169, 'must be between 1 and 168'],
      [1.5, 'must be a whole number of hours'],
    ] as const) {
      const bad = await as('operator', 'POST', '/api/shares', { query: DONOR, ticket: 'SUP-1', expiresInHours });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.detail, `Invalid body: expiresInHours: ${says}.`, 'the field named once');
    }
    const made = await as('operator', 'POST', '/api/shares', { query: DONOR, ticket: 'SUP-1' });
    assert.equal(made.status, 201, made.text);
    assert.match(made.body.url, /\/share\/shr_[A-Za-z0-9]{32}$/);
    const hours = (Date.parse(made.body.expiresAt) - Date.now()) / 3_600_000;
    assert.ok(hours > 71.9 && hours <= 72, `72 hours by default, not ${hours}`);
    const token = made.body.url.split('/share/')[1] as string;

    const open = await fetch(made.body.url.replace(/^https?:\/\/[^/]+/, app.baseUrl));
    const html = await open.text();
    assert.equal(open.status, 200, html.slice(0, 300));
    assert.equal(open.headers.get('x-frame-options'), 'DENY');
    assert.match(open.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(open.headers.get('x-robots-tag') ?? '', /noindex/);
    assert.match(html, /<meta name="robots" content="noindex/);
    assert.match(html, /a•••@example\.org/);
    for (const absent of [DONOR, 'Lovelace', SECRET, '<script', '<button', '<form']) assert.ok(!html.includes(absent), `the shared page holds ${absent}`);

    const listed = await as('viewer', 'GET', `/api/shares?query=${encodeURIComponent(DONOR)}`);
    assert.deepEqual(
      listed.body.results.map((s: { id: string; ticket: string }) => [s.id, s.ticket]),
      [[made.body.id, 'SUP-1']],
    );
    assert.ok(!listed.text.includes(token), 'the token is shown only once');
    assert.match((await as('viewer', 'GET', `/cases/${encodeURIComponent(DONOR)}`)).text, /SUP-1/, 'the case page lists its live links');

    assert.equal((await as('viewer', 'DELETE', `/api/shares/${made.body.id}`)).status, 403);
    assert.equal((await as('operator', 'DELETE', `/api/shares/${made.body.id}`)).status, 204);
    const gone = await fetch(`${app.baseUrl}/share/${token}`);
    assert.equal(gone.status, 410);
    assert.match(await gone.text(), /expired or was revoked/);
    assert.equal((await fetch(`${app.baseUrl}/share/shr_${'x'.repeat(32)}`)).status, 404);
    assert.deepEqual((await as('viewer', 'GET', `/api/shares?query=${encodeURIComponent(DONOR)}`)).body.results, []);

    const audit = await as('admin', 'GET', '/api/audit?target=' + made.body.id);
    const rows = audit.body.results as { action: string; result: string; source: string }[];
    assert.deepEqual(rows.map((r) => `${r.action} ${r.result}`).sort(), ['share.create ok', 'share.open gone', 'share.open ok', 'share.revoke ok']);
    for (const r of rows.filter((x) => x.action === 'share.open')) assert.equal(r.source, '127.0.0.1', 'an opening names its source address');
  });
});
