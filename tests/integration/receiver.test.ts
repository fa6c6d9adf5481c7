// Own app: sign-in limits over X-Forwarded-For (TRUST_PROXY, which the shared app must not have), an https console (CONSOLE_PUBLIC_URL), kill -9 (its older release's receipts: tests/upgrade/receiver.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ADMIN, startApp, type TApp } from '../helpers/app';
import { assertProblem, call, type TResponse } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// The console's receiver (/ingest/{slug}) against the real built app: stored before the answer,
// each signature verdict, the size limit, duplicates, response settings, crash safety. Plus staff
// sign-in and its rate limits, which guard the JSON routes used to read receipts back, and the
// console's HTTP edges (401 challenge, unknown /api paths, the 404 page, the icon).
// The receivers and the HTTP edges are the suite's shared app's (tests/helpers/shared-app.ts; each
// test makes receivers of its own). The sign-in limits are an app's of the file's own, `proxied`:
// TRUST_PROXY=true there keeps a client's X-Forwarded-For, so tests can play many addresses (on the
// shared app every sign-in comes from 127.0.0.1, and locking that would lock out every other file);
// its CONSOLE_PUBLIC_URL is https, so its cookies are Secure; and it is killed (kill -9) and started again.

let app: TSharedApp;
let cookie = '';
let proxied: TApp;
let proxiedCookie = '';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A sign-in attempt, on the file's own app unless told. */
async function login(
  email = ADMIN.email,
  password = ADMIN.password,
  headers: Record<string, string> = {},
  at: Pick<TApp, 'baseUrl'> = proxied,
): Promise<TResponse> {
  return call(at, 'POST', '/api/session', { body: { email, password }, headers });
}

/** The bootstrap admin's session cookie on `at`, its flags checked: Secure exactly when the console is served over https. */
async function signIn(at: Pick<TApp, 'baseUrl'> = app, { secure = false } = {}): Promise<string> {
  const res = await login(ADMIN.email, ADMIN.password, {}, at);
  assert.equal(res.status, 200, res.text);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('gc_console_session='));
  assert.ok(setCookie, 'a session cookie is set');
  assert.match(setCookie, /HttpOnly/i);
  assert.match(setCookie, /SameSite=Lax/i);
  if (secure) assert.match(setCookie, /;\s*Secure/i, 'Secure when the console is served over https');
  else assert.doesNotMatch(setCookie, /;\s*Secure/i, 'no Secure flag on http, or a production build on localhost could never log in');
  return setCookie.split(';')[0];
}

/** A console to call as the admin: the shared app, or the file's own. */
type TConsole = { app: Pick<TApp, 'baseUrl'>; cookie: string };
const shared = (): TConsole => ({ app, cookie });
const own = (): TConsole => ({ app: proxied, cookie: proxiedCookie });

const staff = (method: string, path: string, body?: unknown, at = shared()) => call(at.app, method, path, { body, headers: { cookie: at.cookie } });

async function newReceiver(
  settings: { secret?: string; secrets?: string[]; responseStatus?: number; responseBody?: string; responseDelayMs?: number } = {},
  at = shared(),
) {
  const { secret, ...patch } = settings;
  const res = await staff('POST', '/api/receivers', { name: `test ${Date.now()}`, ...(secret ? { secret } : {}) }, at);
  assert.equal(res.status, 201, res.text);
  if (Object.keys(patch).length) {
    const upd = await staff('PATCH', `/api/receivers/${res.body.id}`, patch, at);
    assert.equal(upd.status, 200, upd.text);
    return upd.body;
  }
  return res.body;
}

async function receipt(id: string | null, at = shared()) {
  assert.ok(id, 'the answer names its receipt (x-receipt-id)');
  const res = await staff('GET', `/api/receipts/${id}`, undefined, at);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

function signed(secret: string, body: string, opts: { id?: string; at?: Date; family?: 'webhook' | 'svix' } = {}) {
  const id = opts.id ?? `msg_${randomBytes(10).toString('hex')}`;
  const at = opts.at ?? new Date();
  const family = opts.family ?? 'webhook';
  return {
    id,
    headers: {
      'content-type': 'application/json',
      [`${family}-id`]: id,
      [`${family}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${family}-signature`]: new Webhook(secret).sign(id, at, body),
    },
  };
}

const ingest = (slug: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST', query = '', at: Pick<TApp, 'baseUrl'> = app) =>
  fetch(`${at.baseUrl}/ingest/${slug}${query}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
  });

before(async () => {
  [app, proxied] = await Promise.all([sharedApp(), startApp({ env: { TRUST_PROXY: 'true', CONSOLE_PUBLIC_URL: 'https://console.example.org' } })]);
  [cookie, proxiedCookie] = await Promise.all([signIn(app), signIn(proxied, { secure: true })]);
});
after(() => Promise.all([app?.stop(), proxied?.stop()]));

describe('staff access', () => {
  const guarded: [string, string][] = [
    ['GET', '/api/session'],
    ['GET', '/api/receivers'],
    ['POST', '/api/receivers'],
    ['GET', '/api/receivers/00000000-0000-0000-0000-000000000000'],
    ['PATCH', '/api/receivers/00000000-0000-0000-0000-000000000000'],
    ['GET', '/api/receivers/00000000-0000-0000-0000-000000000000/receipts'],
    ['GET', '/api/receipts/1'],
  ];
  const CHALLENGE = 'Session realm="giving-connect-console"';
  for (const [method, path] of guarded) {
    test(`${method} ${path} without a session → 401 with a WWW-Authenticate challenge`, async () => {
      const res = await call(app, method, path, { body: method === 'GET' ? undefined : { name: 'x' } });
      assertProblem(res, 401, /sign in/i);
      assert.equal(res.headers.get('www-authenticate'), CHALLENGE);
    });
  }

  test('a forged or stale cookie → 401', async () => {
    const res = await call(app, 'GET', '/api/receivers', { headers: { cookie: 'gc_console_session=Fe26.2**nope' } });
    assertProblem(res, 401);
    assert.equal(res.headers.get('www-authenticate'), CHALLENGE);
  });

  test('wrong password → 401 (with a challenge), the session works after a right one', async () => {
    const res = await login(ADMIN.email, 'wrong-password', { 'x-forwarded-for': '203.0.113.1' });
    assertProblem(res, 401, /wrong email or password/i);
    assert.equal(res.headers.get('www-authenticate'), CHALLENGE);
    const me = await staff('GET', '/api/session', undefined, own());
    assert.equal(me.status, 200);
    assert.equal(me.body.email, ADMIN.email);
    assert.equal(me.body.environment, 'sandbox');
  });

  test('5 failures for one email from one address lock that pair for 15 minutes; the owner elsewhere still signs in', async () => {
    const from = { 'x-forwarded-for': '203.0.113.2' };
    for (let i = 0; i < 5; i++) assertProblem(await login(ADMIN.email, 'wrong-password', from), 401);
    const res = await login(ADMIN.email, ADMIN.password, from);
    assertProblem(res, 429, /too many attempts, try again in 15 minutes/i);
    assert.ok(Number(res.headers.get('retry-after')) > 800);
    // the admin is not locked out: from another address the right password works…
    assert.equal((await login(ADMIN.email, ADMIN.password, { 'x-forwarded-for': '203.0.113.3' })).status, 200);
    // …and the locked address may still try other emails
    assertProblem(await login(`other-${Date.now()}@example.org`, 'wrong-password', from), 401);
  });

  test('a right password clears the failures of that email at that address', async () => {
    const from = { 'x-forwarded-for': '203.0.113.4' };
    for (let i = 0; i < 4; i++) assertProblem(await login(ADMIN.email, 'wrong-password', from), 401);
    assert.equal((await login(ADMIN.email, ADMIN.password, from)).status, 200);
    for (let i = 0; i < 4; i++) assertProblem(await login(ADMIN.email, 'wrong-password', from), 401);
    assert.equal((await login(ADMIN.email, ADMIN.password, from)).status, 200);
  });

  test('20 failures from one source address lock that address', async () => {
    const from = { 'x-forwarded-for': '198.51.100.7, 10.0.0.1' };
    for (let i = 0; i < 20; i++) assertProblem(await login(`nobody-${i}@example.org`, 'wrong-password', from), 401);
    assertProblem(await login(ADMIN.email, ADMIN.password, from), 429, /too many attempts/i);
    // another address is not affected
    assert.equal((await login(ADMIN.email, ADMIN.password, { 'x-forwarded-for': '198.51.100.8' })).status, 200);
  });

  test('parallel guesses cannot slip past a limit', async () => {
    const email = `burst-${Date.now()}@example.org`;
    const from = { 'x-forwarded-for': '198.51.100.20' };
    const codes = (await Promise.all(Array.from({ length: 12 }, () => login(email, 'wrong-password', from)))).map((r) => r.status);
    assert.equal(codes.filter((c) => c === 401).length, 5, `statuses: ${codes.join(',')}`);
    assert.equal(codes.filter((c) => c === 429).length, 7, `statuses: ${codes.join(',')}`);
  });

  test('100 failures for one email, spread over 20 addresses, lock the email everywhere (backstop)', async () => {
    const email = `spread-${Date.now()}@example.org`;
    const addresses = Array.from({ length: 20 }, (_, i) => `192.0.2.${i + 1}`);
    // 5 per address (the most one address gets for one email), 4 addresses at a time
    for (let i = 0; i < addresses.length; i += 4) {
      await Promise.all(
        addresses.slice(i, i + 4).map(async (a) => {
          for (let n = 0; n < 5; n++) assertProblem(await login(email, 'wrong-password', { 'x-forwarded-for': a }), 401);
        }),
      );
    }
    const res = await login(email, 'wrong-password', { 'x-forwarded-for': '192.0.2.200' });
    assertProblem(res, 429, /too many attempts/i);
    assert.ok(Number(res.headers.get('retry-after')) > 800);
    // other emails from those addresses are not affected
    assertProblem(await login(`spread-other-${Date.now()}@example.org`, 'wrong-password', { 'x-forwarded-for': '192.0.2.1' }), 401);
  });

  test('logout ends the session', async () => {
    const mine = await signIn(proxied, { secure: true });
    const out = await call(proxied, 'DELETE', '/api/session', { headers: { cookie: mine } });
    assert.equal(out.status, 204);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('gc_console_session='));
    assert.ok(cleared && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cleared), 'the cookie is cleared');
  });

  test('the cookie is Secure when the console is served over https, and not over http', async () => {
    // `proxied` is served over https (CONSOLE_PUBLIC_URL), the shared app over http: signIn checks the flag either way.
    await signIn(proxied, { secure: true });
    await signIn(app);
  });

  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    test(`${method} on an unknown /api path → problem+json 404, signed in or not`, async () => {
      for (const headers of [{}, { cookie }] as Record<string, string>[]) {
        const res = await call(app, method, '/api/no/such/thing', { headers });
        assertProblem(res, 404, new RegExp(`No console API at ${method} /api/no/such/thing`));
      }
    });
  }

  test('an unknown page → the styled 404 page, with links into the console', async () => {
    const res = await fetch(`${app.baseUrl}/nope`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.match(html, /Page not found/);
    assert.match(html, /href="\/webhooks"/);
    assert.doesNotMatch(html, /This page could not be found/, "not Next's default page");
  });

  test('pages link an icon, and it is served', async () => {
    const html = await (await fetch(`${app.baseUrl}/login`)).text();
    const href = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
    assert.ok(href, 'the login page links an icon');
    const icon = await fetch(new URL(href, app.baseUrl));
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(await icon.text(), /GC/);
  });

  test('bad receiver input → 400 naming the field', async () => {
    const res = await staff('POST', '/api/receivers', { name: 'x', secret: 'not-a-secret' });
    const p = assertProblem(res, 400, /secret/);
    assert.equal(p.errors[0].path, 'secret');
    const bad = await staff('PATCH', `/api/receivers/${(await newReceiver()).id}`, { responseDelayMs: 31000 });
    assertProblem(bad, 400, /responseDelayMs/);
  });
});

describe('receiver', () => {
  test('stores method, path, query, headers, raw bytes, source, size before answering 2xx', async () => {
    const r = await newReceiver();
    const body = JSON.stringify({ hello: 'wörld', n: 1 });
    const res = await ingest(r.slug, body, { 'content-type': 'application/json', 'x-custom': 'abc' }, 'POST', '?a=1&b=two');
    assert.equal(res.status, 200);
    const got = await receipt(res.headers.get('x-receipt-id'));
    assert.equal(got.method, 'POST');
    assert.equal(got.path, `/ingest/${r.slug}`);
    assert.equal(got.query, 'a=1&b=two');
    assert.equal(got.bodyText, body);
    assert.equal(Buffer.from(got.body, 'base64').toString('utf8'), body);
    assert.equal(got.bodySize, Buffer.byteLength(body));
    assert.equal(got.oversize, false);
    assert.deepEqual(
      got.headers.find(([n]: [string]) => n === 'x-custom'),
      ['x-custom', 'abc'],
    );
    assert.match(got.sourceIp, /127\.0\.0\.1/);
    assert.ok(Math.abs(Date.parse(got.receivedAt) - Date.now()) < 10_000);
    assert.equal(got.verdict, 'no secret configured');
    assert.equal(got.responseStatus, 200);
  });

  test('every method is stored; non-UTF-8 bytes are kept exactly', async () => {
    const r = await newReceiver();
    for (const method of ['PUT', 'PATCH', 'DELETE', 'GET']) {
      const res = await ingest(r.slug, 'x', {}, method, `?m=${method}`);
      assert.equal(res.status, 200, method);
      const got = await receipt(res.headers.get('x-receipt-id'));
      assert.equal(got.method, method);
      assert.equal(got.query, `m=${method}`);
    }
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x41, 0xc3]);
    const res = await ingest(r.slug, bytes, { 'content-type': 'application/octet-stream' });
    const got = await receipt(res.headers.get('x-receipt-id'));
    assert.deepEqual(Buffer.from(got.body, 'base64'), bytes);
    assert.equal(got.bodyText, null);
    // a search over a receiver holding non-text bodies still works
    const search = await staff('GET', `/api/receivers/${r.id}/receipts?q=m%3DPUT`);
    assert.equal(search.status, 200, search.text);
  });

  test('unknown slug → 404, nothing stored', async () => {
    const res = await ingest('no-such-receiver', '{}', { 'content-type': 'application/json' });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('x-receipt-id'), null);
    assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
  });

  describe('signature verdicts', () => {
    const body = JSON.stringify({ type: 'grant.succeeded', data: { id: 'g1', amount: 15000 } });

    const cases: [string, () => Promise<{ secrets: string[]; headers: Record<string, string> }>, string, RegExp][] = [
      [
        'valid via webhook-*',
        async () => {
          const s = newSecret();
          return { secrets: [s], headers: signed(s, body).headers };
        },
        'valid',
        /webhook-\*/,
      ],
      [
        'valid via svix-* only (another sender)',
        async () => {
          const s = newSecret();
          return { secrets: [s], headers: signed(s, body, { family: 'svix' }).headers };
        },
        'valid',
        /svix-\*/,
      ],
      ['invalid signature', async () => ({ secrets: [newSecret()], headers: signed(newSecret(), body).headers }), 'invalid signature', /matches/],
      [
        'timestamp outside tolerance',
        async () => {
          const s = newSecret();
          return { secrets: [s], headers: signed(s, body, { at: new Date(Date.now() - 600_000) }).headers };
        },
        'timestamp outside tolerance',
        /6\d\d s old/,
      ],
      [
        'missing headers',
        async () => ({ secrets: [newSecret()], headers: { 'content-type': 'application/json', 'webhook-id': 'msg_x' } }),
        'missing headers',
        /webhook-timestamp, webhook-signature/,
      ],
      ['no secret configured', async () => ({ secrets: [], headers: signed(newSecret(), body).headers }), 'no secret configured', /no signing secret/],
      [
        'rotation: signed with the previous of two secrets',
        async () => {
          const old = newSecret();
          return { secrets: [newSecret(), old], headers: signed(old, body).headers };
        },
        'valid',
        /secret 2 of 2/,
      ],
      [
        'rotation: two signatures, one per secret (as the service sends them)',
        async () => {
          const [a, b] = [newSecret(), newSecret()];
          const at = new Date();
          const h = signed(a, body, { id: 'msg_rot', at }).headers;
          h['webhook-signature'] = `${h['webhook-signature']} ${new Webhook(b).sign('msg_rot', at, body)}`;
          return { secrets: [b], headers: h };
        },
        'valid',
        /secret 1/,
      ],
    ];
    for (const [name, setup, verdict, reason] of cases) {
      test(name, async () => {
        const { secrets, headers } = await setup();
        const r = await newReceiver({ secrets });
        const res = await ingest(r.slug, body, headers);
        assert.equal(res.status, 200);
        const got = await receipt(res.headers.get('x-receipt-id'));
        assert.equal(got.verdict, verdict, got.verdictReason);
        assert.match(got.verdictReason, reason);
      });
    }

    test('a tampered body fails against the same headers', async () => {
      const s = newSecret();
      const r = await newReceiver({ secret: s });
      const res = await ingest(r.slug, body.replace('15000', '99999'), signed(s, body).headers);
      assert.equal((await receipt(res.headers.get('x-receipt-id'))).verdict, 'invalid signature');
    });
  });

  test('1 MiB is the limit: over it → 413 and a metadata-only receipt', async () => {
    const r = await newReceiver();
    const exact = Buffer.alloc(1024 * 1024, 0x61);
    const ok = await ingest(r.slug, exact, { 'content-type': 'text/plain' });
    assert.equal(ok.status, 200);
    const kept = await receipt(ok.headers.get('x-receipt-id'));
    assert.equal(kept.bodySize, exact.length);
    assert.equal(kept.oversize, false);
    assert.equal(Buffer.from(kept.body, 'base64').length, exact.length);

    const over = await ingest(r.slug, Buffer.alloc(1024 * 1024 + 1, 0x61), { 'content-type': 'text/plain', 'x-marker': 'big' });
    assert.equal(over.status, 413);
    const meta = await receipt(over.headers.get('x-receipt-id'));
    assert.equal(meta.oversize, true);
    assert.equal(meta.body, null);
    assert.equal(meta.bodySize, 1024 * 1024 + 1);
    assert.equal(meta.responseStatus, 413);
    assert.ok(meta.headers.some(([n, v]: [string, string]) => n === 'x-marker' && v === 'big'));
  });

  test('a duplicate (same webhook-id after a 2xx) is stored and flagged', async () => {
    const s = newSecret();
    const r = await newReceiver({ secret: s });
    const body = '{"n":1}';
    const first = signed(s, body);
    const a = await ingest(r.slug, body, first.headers);
    const b = await ingest(r.slug, body, first.headers);
    const [ra, rb] = [await receipt(a.headers.get('x-receipt-id')), await receipt(b.headers.get('x-receipt-id'))];
    assert.notEqual(ra.id, rb.id);
    assert.equal(ra.duplicate, false);
    assert.equal(rb.duplicate, true);
    assert.equal(rb.messageId, first.id);
    // the same id on another receiver is not a duplicate there
    const other = await newReceiver({ secret: s });
    const c = await ingest(other.slug, body, first.headers);
    assert.equal((await receipt(c.headers.get('x-receipt-id'))).duplicate, false);
  });

  test('copies of one message that arrive together: exactly one original, the rest duplicates', async () => {
    const r = await newReceiver();
    const headers = { 'content-type': 'application/json', 'webhook-id': `msg_${randomBytes(8).toString('hex')}` };
    const answers = await Promise.all(Array.from({ length: 12 }, () => ingest(r.slug, '{}', headers)));
    assert.ok(answers.every((a) => a.status === 200));
    const flags = await Promise.all(answers.map(async (a) => (await receipt(a.headers.get('x-receipt-id'))).duplicate));
    assert.equal(flags.filter((d) => !d).length, 1, `one original among ${JSON.stringify(flags)}`);
    const listed = await staff('GET', `/api/receivers/${r.id}/receipts`);
    assert.equal(listed.status, 200, listed.text);
    const byId = (listed.body.results as { id: number; duplicate: boolean }[]).sort((a, b) => a.id - b.id);
    assert.deepEqual(
      byId.map((x) => x.duplicate),
      [false, ...Array(11).fill(true)],
      'the first stored is the original',
    );
  });

  test('retries after an error answer are not duplicates; an arrival after a 2xx is', async () => {
    const r = await newReceiver({ responseStatus: 500 });
    const headers = { 'content-type': 'application/json', 'webhook-id': `msg_${randomBytes(8).toString('hex')}` };
    const flags: boolean[] = [];
    const arrive = async (status: number) => {
      const res = await ingest(r.slug, '{}', headers);
      assert.equal(res.status, status);
      flags.push((await receipt(res.headers.get('x-receipt-id'))).duplicate);
    };
    await arrive(500);
    await arrive(500); // the sender retries
    await staff('PATCH', `/api/receivers/${r.id}`, { responseStatus: 200 });
    await arrive(200); // the first acknowledged arrival
    await arrive(200); // arrived again after it was acknowledged
    await staff('PATCH', `/api/receivers/${r.id}`, { responseStatus: 503 });
    await arrive(503); // still a duplicate: a 2xx was given before
    assert.deepEqual(flags, [false, false, false, true, true]);
  });

  test('response settings: status, body and delay are honoured (and recorded)', async () => {
    const r = await newReceiver({ responseStatus: 500, responseBody: '{"error":"drill"}', responseDelayMs: 400 });
    const started = Date.now();
    const res = await ingest(r.slug, '{}', { 'content-type': 'application/json' });
    const took = Date.now() - started;
    assert.equal(res.status, 500);
    assert.equal(await res.text(), '{"error":"drill"}');
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.ok(took >= 400, `answered after ${took} ms`);
    assert.equal((await receipt(res.headers.get('x-receipt-id'))).responseStatus, 500);
    // back to normal: shows at once
    await staff('PATCH', `/api/receivers/${r.id}`, { responseStatus: 204, responseDelayMs: 0 });
    assert.equal((await ingest(r.slug, '{}')).status, 204);
  });

  test('receipt log: newest first, paged by id, searchable in body and headers', async () => {
    const r = await newReceiver();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ingest(r.slug, JSON.stringify({ i, note: i === 2 ? 'Needle in the body' : 'hay' }), { 'x-tag': i === 4 ? 'HeaderNeedle' : 'plain' });
      ids.push(Number(res.headers.get('x-receipt-id')));
    }
    const p1 = await staff('GET', `/api/receivers/${r.id}/receipts?pageLimit=2`);
    assert.deepEqual(
      p1.body.results.map((x: { id: number }) => x.id),
      [ids[4], ids[3]],
    );
    assert.equal(typeof p1.body.nextPageToken, 'string');
    const p2 = await staff('GET', `/api/receivers/${r.id}/receipts?pageLimit=2&pageToken=${encodeURIComponent(p1.body.nextPageToken)}`);
    assert.deepEqual(
      p2.body.results.map((x: { id: number }) => x.id),
      [ids[2], ids[1]],
    );
    const p3 = await staff('GET', `/api/receivers/${r.id}/receipts?pageLimit=2&pageToken=${encodeURIComponent(p2.body.nextPageToken)}`);
    assert.deepEqual(
      p3.body.results.map((x: { id: number }) => x.id),
      [ids[0]],
    );
    assert.equal(p3.body.nextPageToken, undefined);

    const inBody = await staff('GET', `/api/receivers/${r.id}/receipts?q=needle%20IN`);
    assert.deepEqual(
      inBody.body.results.map((x: { id: number }) => x.id),
      [ids[2]],
    );
    const inHeaders = await staff('GET', `/api/receivers/${r.id}/receipts?q=headerneedle`);
    assert.deepEqual(
      inHeaders.body.results.map((x: { id: number }) => x.id),
      [ids[4]],
    );
    const wildcard = await staff('GET', `/api/receivers/${r.id}/receipts?q=%25`);
    assert.deepEqual(wildcard.body.results, [], 'LIKE wildcards in q are literal');

    for (const bad of ['pageLimit=0', 'pageLimit=101', 'pageLimit=', 'pageLimit=two', 'pageLimit=1.5']) {
      const p = assertProblem(await staff('GET', `/api/receivers/${r.id}/receipts?${bad}`), 400, /pageLimit must be a whole number from 1 to 100/);
      assert.equal(p.errors[0].path, 'pageLimit', bad);
    }
    for (const bad of ['pageToken=abc', 'pageToken=0', 'pageToken=-5', 'pageToken=1e3']) {
      const p = assertProblem(await staff('GET', `/api/receivers/${r.id}/receipts?${bad}`), 400, /pageToken/);
      assert.equal(p.errors[0].path, 'pageToken', bad);
    }
  });

  test('the timeline feed validates pageLimit before asking the API', async () => {
    for (const bad of ['pageLimit=0', 'pageLimit=101', 'pageLimit=', 'pageLimit=x']) {
      const p = assertProblem(await staff('GET', `/api/webhooks/ep_none/timeline?${bad}`), 400, /pageLimit must be a whole number from 1 to 100/);
      assert.equal(p.errors[0].path, 'pageLimit', bad);
    }
  });

  test('a receipt answered 2xx survives kill -9 right after', async () => {
    const s = newSecret();
    const r = await newReceiver({ secret: s }, own());
    const sent: { id: string; body: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const body = JSON.stringify({ i, pad: randomBytes(64).toString('hex') });
      const res = await ingest(r.slug, body, signed(s, body).headers, 'POST', '', proxied);
      assert.equal(res.status, 200);
      sent.push({ id: res.headers.get('x-receipt-id')!, body });
    }
    // Arriving together, these are committed in shared batches (group commit); each 2xx still means stored.
    await Promise.all(
      Array.from({ length: 64 }, async (_, i) => {
        const body = JSON.stringify({ together: i, pad: randomBytes(64).toString('hex') });
        const res = await ingest(r.slug, body, signed(s, body).headers, 'POST', '', proxied);
        assert.equal(res.status, 200);
        sent.push({ id: res.headers.get('x-receipt-id')!, body });
      }),
    );
    assert.equal(new Set(sent.map((x) => x.id)).size, sent.length, 'every receipt has its own id');
    await proxied.kill();
    await proxied.restart();
    // The session secret lives in the database: a cookie from before the kill still works.
    assert.equal((await staff('GET', '/api/session', undefined, own())).status, 200);
    for (const { id, body } of sent) {
      const got = await receipt(id, own());
      assert.equal(got.bodyText, body);
      assert.equal(got.verdict, 'valid');
    }
  });
});
