import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import routeTable from '../../lib/http/route-table.json' with { type: 'json' };
import { forbiddenMessage, forbiddenPageMessage, hasRole } from '../../lib/console/staff/roles';
import { asSeenBy, maskEmail, redactForViewer } from '../../lib/console/staff/viewer-redaction';
import { secretFingerprint } from '../../lib/console/secret-fingerprint';
import { renderGone, renderSharedCase } from '../../lib/console/share/render-share';

// Roles and what a viewer is sent (pure), and the route table's actions against the source: every
// exported server action is listed, and its guard names the role the table gives it.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=';

test('roles rank viewer < operator < admin; an unknown role may do nothing', () => {
  assert.equal(hasRole('admin', 'operator'), true);
  assert.equal(hasRole('operator', 'operator'), true);
  assert.equal(hasRole('viewer', 'operator'), false);
  assert.equal(hasRole('owner', 'viewer'), false);
  assert.equal(forbiddenMessage('viewer', 'admin'), 'Only admins can do this; you are signed in as a viewer.');
  assert.equal(forbiddenMessage('operator', 'admin'), 'Only admins can do this; you are signed in as an operator.');
});

test('a viewer gets fingerprints for secrets and masked donor details, wherever they are', () => {
  assert.equal(maskEmail('ada@example.org'), 'a•••@example.org');
  const body = JSON.stringify({ data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', phone: '+1 555', amount: 25 } });
  const seen = redactForViewer({
    secrets: [SECRET, 'plain-secret'],
    receiverSecrets: [{ fingerprint: 'abcd1234', secret: SECRET }],
    email: 'ada@example.org',
    tags: ['donor:ada@example.org', 'name:ada lovelace', 'grant:1'],
    bodyText: body,
    body: Buffer.from(body).toString('base64'),
    note: 'calls Tuesdays',
    raw: new TextEncoder().encode(`Authorization: Bearer abc.def ${SECRET}`),
    actor: 'staff@example.org',
    at: new Date(0),
    forwards: [{ responseBody: null, responseBodyBase64: Buffer.concat([Buffer.from([0xff]), Buffer.from(body)]).toString('base64') }],
  }) as Record<string, unknown>;
  const reply = Buffer.from((seen.forwards as { responseBodyBase64: string }[])[0].responseBodyBase64, 'base64').toString();
  const text = JSON.stringify(seen) + new TextDecoder().decode(seen.raw as Uint8Array) + Buffer.from(String(seen.body), 'base64').toString() + reply;
  for (const leaked of [SECRET, 'plain-secret', 'ada@example.org', 'Lovelace', 'ada lovelace', '+1 555', 'Tuesdays', 'abc.def'])
    assert.ok(!text.includes(leaked), leaked);
  assert.deepEqual(seen.secrets, [`[secret ${secretFingerprint(SECRET)}…]`, `[secret ${secretFingerprint('plain-secret')}…]`]);
  assert.equal((seen.receiverSecrets as { fingerprint: string }[])[0].fingerprint, 'abcd1234', 'a fingerprint stays');
  assert.equal(seen.email, 'a•••@example.org');
  assert.deepEqual(seen.tags, ['donor:•••', 'name:•••', 'grant:1']);
  assert.match(String(seen.bodyText), /"firstName":"A•••".*"amount":25/);
  assert.equal(seen.actor, 'staff@example.org', 'a staff member is no donor');
  assert.ok(seen.at instanceof Date);
  assert.equal(asSeenBy('operator', SECRET), SECRET);
  assert.notEqual(asSeenBy('viewer', { secret: SECRET }).secret, SECRET);
});

test('every server action is in the route table, and its guard names the role the table gives it', () => {
  const actions = (routeTable as unknown as { actions: { file: string; name: string; role: string }[] }).actions;
  const listed = new Set(actions.map((a) => `${a.file}#${a.name}`));
  const files = [
    ...fs.readdirSync(path.join(ROOT, 'app'), { recursive: true }).map((f) => path.join('app', String(f))),
    'lib/console/staff/auth-actions.ts',
  ].filter((f) => /\.tsx?$/.test(f) && fs.readFileSync(path.join(ROOT, f), 'utf8').startsWith("'use server'"));
  assert.ok(files.length >= 8);
  for (const file of files) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of source.matchAll(/^export async function (\w+)\(/gm)) {
      assert.ok(listed.has(`${file}#${m[1]}`), `${file} exports ${m[1]}, which lib/http/route-table.json's actions do not list`);
      const entry = actions.find((a) => a.file === file && a.name === m[1])!;
      const bodyStart = m.index! + m[0].length;
      const guard = /await (requireRole|requireSignedIn)\(([^)]*)\)/.exec(source.slice(bodyStart, bodyStart + 600));
      if (entry.role === 'none') continue;
      assert.ok(guard, `${m[1]} starts with a guard`);
      const role = /'(viewer|operator|admin)'/.exec(guard[2])?.[1] ?? 'viewer';
      assert.equal(role, entry.role, `${file} ${m[1]}`);
    }
    // An action made by a wrapper (its role is the wrapper's option; tests/integration/roles.test.ts asks each as every role).
    for (const m of source.matchAll(/^export const (\w+)\b[^=]*= (\w+)/gm)) {
      assert.ok(['staffAction', 'staffFormAction', 'staffFormPost'].includes(m[2]), `${file} exports ${m[1]} made by ${m[2]}, not by a staff action wrapper`);
      assert.ok(listed.has(`${file}#${m[1]}`), `${file} exports ${m[1]}, which lib/http/route-table.json's actions do not list`);
    }
  }
  for (const a of actions) assert.ok(files.includes(a.file), `${a.file} is a 'use server' file`);
});

test('every console page enters through a staffView loader: its first call checks the session and the role', () => {
  const made = /^(?:export )?const (\w+) = staff(?:Query)?View\(/gm;
  const loaders = new Set<string>();
  for (const f of fs
    .readdirSync(path.join(ROOT, 'lib/console'), { recursive: true })
    .map(String)
    .filter((x) => x.endsWith('.ts'))) {
    for (const m of fs.readFileSync(path.join(ROOT, 'lib/console', f), 'utf8').matchAll(made)) loaders.add(m[1]);
  }
  const pages = fs
    .readdirSync(path.join(ROOT, 'app/(console)'), { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === 'page.tsx');
  assert.ok(pages.length >= 19, `${pages.length} pages`);
  for (const page of pages) {
    const source = fs.readFileSync(path.join(ROOT, 'app/(console)', page), 'utf8');
    const local = new Set([...source.matchAll(made)].map((m) => m[1]));
    const body = source.slice(source.search(/^export default async function/m));
    const first = /\bawait (\w+)\(/.exec(body)?.[1];
    assert.ok(
      first && (local.has(first) || (loaders.has(first) && new RegExp(`import \\{[^}]*\\b${first}\\b[^}]*\\} from '@/lib/console/`).test(source))),
      `app/(console)/${page} starts with ${first ?? 'nothing'}, not a staffView loader`,
    );
  }
});

test('a shared case is plain escaped HTML: no script, no form, no button, not indexed', () => {
  const hostile = '<script>alert(1)</script>';
  const html = renderSharedCase(
    { query: hostile, kind: 'unknown', grants: [], messages: [], notes: [`"><img src=x onerror=alert(1)>`], fetchedAt: '2026-01-01T00:00:00.000Z' },
    { ticket: '<b>SUP-1</b>', expiresAt: new Date('2026-01-04T00:00:00Z'), createdBy: 'op@example.org' },
  );
  for (const tag of ['<script', '<img', '<form', '<button', '<b>']) assert.ok(!html.includes(tag), tag);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /<meta name="robots" content="noindex,nofollow">/);
  assert.match(renderGone('gone'), /expired or was revoked/);
});

test('the 403 page says whom the page is for, and what the caller is', () => {
  assert.equal(forbiddenPageMessage('operator', 'admin'), 'This page is for admins; you are signed in as an operator.');
  assert.equal(forbiddenPageMessage('viewer', 'operator'), 'This page is for operators and admins; you are signed in as a viewer.');
  assert.equal(forbiddenPageMessage(null, null), 'Your role does not reach this page.');
});
