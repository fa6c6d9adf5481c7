import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { SignJWT, importJWK, type JWK } from 'jose';
import { SANDBOX } from '../helpers/app';
import { assertProblem, call, staffCookie, token } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (refusals happen before the store is
// reached, and the same on any store).
// Each bullet of the input boundary, one by one (the fuzz test covers them in bulk): what a
// hostile client sends is a 4xx naming what is wrong, and the headers every answer carries.
// On the suite's shared app (tests/helpers/shared-app.ts): the webhooks it counts are its own
// account's; the tokens it forges are signed with the app's own key (`signingKey()`).

let app: TSharedApp;
let tok: string;
before(async () => {
  app = await sharedApp();
  tok = await token(app);
});
after(() => app?.stop());

/** Writes `request` on a raw socket (nothing normalised) and reads until the server answers or closes. */
function rawHttp(request: string | Buffer, { keepWriting = false } = {}): Promise<{ status: number; head: string; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(app.port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(request);
      // A client that declared a huge body and keeps sending it slowly: the answer must not wait for it.
      if (keepWriting) timer = setInterval(() => socket.writable && socket.write('x'.repeat(1024)), 50);
    });
    socket.on('data', (d) => {
      data += d;
      const end = data.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(data)?.[1];
      if (end >= 0 && length !== undefined && Buffer.byteLength(data.slice(end + 4)) >= Number(length)) socket.destroy();
    });
    socket.on('close', () => {
      clearInterval(timer);
      const [head, body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body, ms: Date.now() - started });
    });
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 10_000);
  });
}

test('a declared Content-Length over the limit is a 413 at once, without waiting for the body', async () => {
  const res = await rawHttp(
    `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{"url":`,
    { keepWriting: true },
  );
  assert.equal(res.status, 413, res.head);
  assert.match(res.head, /content-type: application\/problem\+json/i);
  assert.match(JSON.parse(res.body).detail, /999999999 bytes; the limit is 262144/);
  assert.ok(res.ms < 3000, `answered in ${res.ms} ms`);
});

/**
 * Sends 32 × 64 KiB to PATCH /v1/webhooks/{id}, `gapMs` apart (declared up front, or chunked),
 * and resolves with the answer's status and any error the client saw while sending or reading.
 */
function largePatch(webhookId: string, { chunked = false, gapMs = 10 } = {}): Promise<{ status: number; body: string; error: string | null; written: number }> {
  const piece = Buffer.alloc(64 * 1024, 'a');
  const pieces = 32; // 2 MiB
  return new Promise((resolve) => {
    let status = 0;
    let body = '';
    let error: string | null = null;
    let written = 0;
    let finished = false;
    let read = false;
    const done = () => (error || (finished && read)) && resolve({ status, body, error, written });
    const req = http.request(`${app.baseUrl}/v1/webhooks/${webhookId}`, {
      method: 'PATCH',
      agent: false,
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': piece.length * pieces }) },
    });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        read = true;
        done();
      });
      res.on('error', (err: NodeJS.ErrnoException) => {
        error ??= err.code ?? err.message;
        done();
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      done();
    });
    req.on('finish', () => {
      finished = true;
      done();
    });
    (async () => {
      for (let i = 0; i < pieces && !error; i++) {
        req.write(piece);
        written += piece.length;
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        else if (req.writableNeedDrain) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })();
  });
}

test('a 2 MiB PATCH, sent slowly or at full speed, reads its 413: the rest of the body is read and dropped before the connection closes', async () => {
  const hook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: 'http://127.0.0.1:9/linger', eventTypes: ['grant.succeeded'] } });
  assert.equal(hook.status, 201, hook.text);
  const declared = await largePatch(hook.body.id);
  assert.equal(declared.error, null, 'no EPIPE or reset while the body was still being sent');
  assert.equal(declared.written, 2 * 1024 * 1024);
  assert.equal(declared.status, 413);
  assert.match(JSON.parse(declared.body).detail, /2097152 bytes; the limit is 262144/);
  const fast = await largePatch(hook.body.id, { gapMs: 0 });
  assert.equal(fast.error, null, 'at full speed: no EPIPE or reset either');
  assert.equal(fast.status, 413);
  const chunked = await largePatch(hook.body.id, { chunked: true });
  assert.equal(chunked.error, null, 'chunked, with no length declared: no EPIPE or reset either');
  assert.equal(chunked.status, 413);
  assert.match(JSON.parse(chunked.body).detail, /over the limit of 262144 bytes/);
  assert.equal((await call(app, 'GET', `/v1/webhooks/${hook.body.id}`, { token: tok })).body.url, 'http://127.0.0.1:9/linger', 'nothing changed');
});

test('the lingering is bounded: a client that never stops sending is cut off once 16 MiB more have been dropped (or 10 s have passed)', async () => {
  const { status, cutOff } = await new Promise<{ status: number; cutOff: boolean }>((resolve, reject) => {
    const socket = net.connect(app.port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 'x');
    let data = '';
    let sent = 0;
    const pump = () => {
      // Write while the socket drains; stop at 64 MiB (four times the bound), never closing first.
      while (socket.writable && sent < 64 * 1024 * 1024) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `PATCH /v1/webhooks/wh_x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n`,
      );
      pump();
    });
    socket.on('data', (d) => (data += d));
    socket.on('error', () => {}); // the cut-off resets what this side still writes
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), cutOff: sent < 64 * 1024 * 1024 }));
    setTimeout(() => reject(new Error(`not cut off (${sent} bytes sent)`)), 60_000).unref();
  });
  assert.equal(status, 413);
  assert.ok(cutOff, 'the server closed the connection before the client was done');
});

test('methods nobody routes: TRACE → 405 with Allow; one HTTP does not know → 400 problem', async () => {
  const trace = await rawHttp(`TRACE /v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\n\r\n`);
  assert.equal(trace.status, 405);
  assert.match(trace.head, /\r\nallow: GET, POST, HEAD, OPTIONS\r\n/i);
  assert.match(trace.head, /content-type: application\/problem\+json/i);
  assert.match(JSON.parse(trace.body).detail, /TRACE is not allowed here/);
  const page = await call(app, 'PROPFIND', '/webhooks');
  assert.equal(page.status, 405);
  assert.equal(page.headers.get('allow'), 'GET, HEAD');
  const brew = await rawHttp('BREW /v1/webhooks HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
  assert.equal(brew.status, 400);
  assert.match(JSON.parse(brew.body).detail, /method is not one HTTP\/1\.1 servers know/);
});

test('a NUL in a header is a 400 problem naming it', async () => {
  const res = await rawHttp(Buffer.from(`GET /v1/webhooks HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n`, 'latin1'));
  assert.equal(res.status, 400);
  assert.match(JSON.parse(res.body).detail, /header holds a character HTTP does not allow \(a NUL/);
});

test('/v1 and /v1/ are JSON 404s', async () => {
  for (const path of ['/v1', '/v1/']) assertProblem(await call(app, 'GET', path, { token: tok }), 404, /No operation at GET \/v1/);
});

test('NUL and lone surrogates in a JSON body, a path id or a query are 400s naming the field; nothing is stored', async () => {
  const before = (await call(app, 'GET', '/v1/webhooks', { token: tok })).body.results.length;
  const url = 'http://127.0.0.1:9/hook';
  const body = (extra: string) => `{"url":"${url}","eventTypes":["grant.succeeded"],${extra}}`;
  const cases: [string, string, RegExp][] = [
    ['a NUL in a field', body('"description":"a\\u0000b"'), /description: must not contain a NUL character/],
    ['a lone high surrogate', body('"description":"\\ud800"'), /description: must not contain an unpaired UTF-16 surrogate/],
    ['a lone low surrogate in an array', `{"url":"${url}","eventTypes":["grant.succeeded\\udc00"]}`, /eventTypes\.0: must not contain an unpaired/],
    ['a NUL in a field name', body('"a\\u0000":1'), /field name must not contain a NUL/],
  ];
  for (const [name, raw, detail] of cases) {
    const res = await call(app, 'POST', '/v1/webhooks', { token: tok, raw, headers: { 'content-type': 'application/json' } });
    const problem = assertProblem(res, 400, detail);
    assert.ok(problem.errors?.[0]?.path, `${name}: the field is named`);
  }
  assertProblem(await call(app, 'GET', '/v1/webhooks/ep_%00', { token: tok }), 400, /contains a NUL byte/);
  assertProblem(await call(app, 'GET', '/v1/messages?tag=%ED%A0%80', { token: tok }), 400, /query parameter "tag" is not valid percent-encoded UTF-8/);
  assertProblem(await call(app, 'GET', '/v1/webhooks/%zz', { token: tok }), 400, /"%zz" is not valid percent-encoded UTF-8/);
  assert.equal((await call(app, 'GET', '/v1/webhooks', { token: tok })).body.results.length, before, 'nothing was created');
});

test('dates outside 1970–9999 are 400s naming the parameter', async () => {
  for (const value of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
    const res = await call(app, 'GET', `/v1/messages?after=${encodeURIComponent(value)}`, { token: tok });
    assertProblem(res, 400, /after: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z/);
  }
  assertProblem(await call(app, 'GET', `/v1/messages?before=${encodeURIComponent('+275760-09-13T00:00:00Z')}`, { token: tok }), 400, /before:/);
  const cookie = await staffCookie(app);
  assertProblem(await call(app, 'GET', '/api/problems?since=0000-01-01T00:00:00Z', { headers: { cookie } }), 400, /since/);
  // The console names what it would pass on and the service would refuse (issue 49, item 10): never an "Upstream error".
  const EP = 'ep_0000000000000000000000000000';
  for (const [path, field] of [
    ['/api/reconciliation?date=9999-12-31', 'date'],
    [`/api/webhooks/${EP}/timeline?eventType=grant.bogus`, 'eventType'],
    [`/api/webhooks/${EP}/export?format=csv&eventType=grant.bogus`, 'eventType'],
  ] as const) {
    const problem = assertProblem(await call(app, 'GET', path, { headers: { cookie } }), 400);
    assert.deepEqual([problem.title, problem.errors?.[0]?.path], ['Bad Request', field], `${path}: ${JSON.stringify(problem)}`);
  }
  const early = await call(app, 'GET', '/api/problems?until=1970-01-01T00:00:01Z', { headers: { cookie } });
  assert.equal(early.status, 200, `a window reaching back before 1970 starts there: ${early.text}`);
});

test('the token endpoint: repeated parameters, over-long credentials, NUL, broken Basic → 400 invalid_request', async () => {
  const form = (body: string, headers: Record<string, string> = {}) =>
    call(app, 'POST', '/oauth/token', { raw: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
  const good = `client_secret=${SANDBOX.clientSecret}&audience=${encodeURIComponent(SANDBOX.audience)}&grant_type=client_credentials`;
  const cases: [string, Awaited<ReturnType<typeof form>>, RegExp][] = [
    ['client_id twice', await form(`client_id=${SANDBOX.clientId}&client_id=other&${good}`), /client_id came more than once/],
    ['a 129-character client_id', await form(`client_id=${'a'.repeat(129)}&${good}`), /client_id is longer than 128 characters/],
    [
      'a 100 kB client_secret',
      await form(`client_id=x&client_secret=${'s'.repeat(100_000)}&audience=a&grant_type=client_credentials`),
      /client_secret is longer than 256/,
    ],
    ['a NUL in client_id', await form(`client_id=a%00&${good}`), /form-urlencoded, in UTF-8 with well-formed escapes and no NUL/],
    [
      'a NUL in JSON',
      await call(app, 'POST', '/oauth/token', { body: { client_id: 'a\u0000', client_secret: 'x', audience: 'a', grant_type: 'client_credentials' } }),
      /"client_id" must not contain a NUL/,
    ],
    [
      'Basic with a bad escape',
      await form(`audience=a&grant_type=client_credentials`, { authorization: `Basic ${Buffer.from('%zz:%zz').toString('base64')}` }),
      /Basic credentials must be/,
    ],
  ];
  for (const [name, res, detail] of cases) {
    assert.equal(res.status, 400, `${name}: ${res.text}`);
    assert.equal(res.body.error, 'invalid_request', name);
    assert.match(res.body.error_description, detail, name);
  }
});

test('page tokens are signed: a forged or altered token is a 400 before any query', async () => {
  for (let i = 0; i < 3; i++)
    assert.equal(
      (await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: `http://127.0.0.1:9/p${i}`, eventTypes: ['grant.succeeded'] } })).status,
      201,
    );
  const first = await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: tok });
  const issued: string = first.body.nextPageToken;
  assert.match(issued, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  assert.equal((await call(app, 'GET', `/v1/webhooks?pageLimit=1&pageToken=${issued}`, { token: tok })).status, 200);
  const [payload, mac] = issued.split('.');
  const cursor = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const forgedPayload = Buffer.from(JSON.stringify({ ...cursor, t: '2100-01-01T00:00:00.000Z' })).toString('base64url');
  for (const forged of [`${forgedPayload}.${mac}`, payload, `${payload}.${'A'.repeat(22)}`, Buffer.from(JSON.stringify(cursor)).toString('base64url')]) {
    assertProblem(await call(app, 'GET', `/v1/webhooks?pageToken=${forged}`, { token: tok }), 400, /pageToken is not one this service issued/);
  }
});

test('access tokens must carry exp, iat and jti, even when signed with the real key', async () => {
  const signing = await app.signingKey();
  const key = await importJWK(signing.privateJwk as JWK, 'RS256');
  const clientId = app.defaultClient?.client_id ?? SANDBOX.clientId;
  const mint = async (omit: 'exp' | 'iat' | 'jti' | null) => {
    const now = Math.floor(Date.now() / 1000);
    let jwt = new SignJWT({ azp: clientId, scope: 'read:nonprofits', gty: 'client-credentials' })
      .setProtectedHeader({ alg: 'RS256', kid: signing.kid, typ: 'JWT' })
      .setIssuer(`${app.baseUrl}/`)
      .setSubject(`${clientId}@clients`)
      .setAudience(SANDBOX.audience);
    if (omit !== 'iat') jwt = jwt.setIssuedAt(now);
    if (omit !== 'exp') jwt = jwt.setExpirationTime(now + 600);
    if (omit !== 'jti') jwt = jwt.setJti(randomUUID());
    return jwt.sign(key);
  };
  assert.equal((await call(app, 'GET', '/v1/webhooks', { token: await mint(null) })).status, 200, 'a whole token is accepted');
  for (const claim of ['exp', 'iat', 'jti'] as const) {
    assertProblem(await call(app, 'GET', '/v1/webhooks', { token: await mint(claim) }), 401, new RegExp(`has no ${claim} claim`));
  }
});

test('nothing may be cached; console pages may not be framed', async () => {
  const cookie = await staffCookie(app);
  const webhook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: 'http://127.0.0.1:9/h', eventTypes: ['grant.succeeded'] } });
  const np = await call(app, 'POST', '/v1/nonprofits', {
    token: tok,
    body: { ein: `47${String(Date.now() % 1e7).padStart(7, '0')}`, user: { email: 'ed@example.org' } },
  });
  const connect = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  const noStore = [
    await call(app, 'GET', `/v1/connects/${connect.body.id}`, { token: tok }),
    await call(app, 'GET', `/v1/webhooks/${webhook.body.id}/secret`, { token: tok }),
    await call(app, 'GET', '/api/receivers', { headers: { cookie } }),
    await call(app, 'GET', '/webhooks', { headers: { cookie } }),
    await call(app, 'GET', '/login'),
    await call(app, 'GET', `/connect/${connect.body.id}`),
  ];
  for (const res of noStore) assert.match(res.headers.get('cache-control') ?? '', /no-store/, `${res.status} ${res.text.slice(0, 80)}`);
  for (const path of ['/webhooks', '/login', '/receivers']) {
    const res = await call(app, 'GET', path, { headers: { cookie } });
    assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
  }
  assert.match((await call(app, 'GET', '/.well-known/jwks.json')).headers.get('cache-control') ?? '', /max-age=300/, 'the public keys may be cached');
});

/** The page's Content-Security-Policy as directive → sources, and the nonce its script-src names. */
function policyOf(res: { headers: Headers }): { directives: Map<string, string>; nonce: string } {
  const directives = new Map<string, string>();
  for (const d of (res.headers.get('content-security-policy') ?? '').split(';')) {
    const [name, ...sources] = d.trim().split(/\s+/);
    if (name) directives.set(name, sources.join(' '));
  }
  return { directives, nonce: /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(directives.get('script-src') ?? '')?.[1] ?? '' };
}

test('every answer is nosniff with same-origin referrers; a page runs only the scripts carrying its own fresh nonce', async () => {
  const cookie = await staffCookie(app);
  const np = await call(app, 'POST', '/v1/nonprofits', {
    token: tok,
    body: { ein: `48${String(Date.now() % 1e7).padStart(7, '0')}`, user: { email: 'csp@example.org' } },
  });
  const connect = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  const pages = {
    'a console page': await call(app, 'GET', '/webhooks', { headers: { cookie } }),
    'the sign-in page': await call(app, 'GET', '/login'),
    'a page not found': await call(app, 'GET', '/no-such-page', { headers: { cookie } }),
    "the donor's page": await call(app, 'GET', `/connect/${connect.body.id}`),
  };
  const asset = /<script[^>]* src="(\/_next\/static\/[^"]+\.js)"/.exec(pages['a console page'].text)?.[1];
  assert.ok(asset, 'the page loads a script of the build');
  const answers = {
    ...pages,
    'a console route': await call(app, 'GET', '/api/receivers', { headers: { cookie } }),
    'a service route': await call(app, 'GET', '/v1/webhooks', { token: tok }),
    'the token endpoint': await call(app, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials' } }),
    'the receiver': await call(app, 'POST', '/ingest/no-such-receiver', { body: { a: 1 } }),
    "the front door's refusal": await call(app, 'GET', '/%ff'),
    'a script of the build': await call(app, 'GET', asset),
    'the API reference': await call(app, 'GET', '/reference'),
    'the public keys': await call(app, 'GET', '/.well-known/jwks.json'),
  };
  for (const [what, res] of Object.entries(answers)) {
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what} (${res.status})`);
    assert.equal(res.headers.get('referrer-policy'), 'same-origin', `${what} (${res.status})`);
  }
  for (const [what, res] of Object.entries(pages)) {
    const { directives, nonce } = policyOf(res);
    assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/, `${what}: script-src names a nonce: ${res.headers.get('content-security-policy')}`);
    assert.equal(directives.get('script-src'), `'nonce-${nonce}' 'strict-dynamic'`, what);
    for (const [name, sources] of Object.entries({
      'default-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'connect-src': "'self'",
    })) {
      assert.equal(directives.get(name), sources, `${what}: ${name}`);
    }
    const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
    assert.ok(scripts.length > 2, `${what} has Next's scripts`);
    for (const tag of scripts) assert.ok(tag.includes(` nonce="${nonce}"`), `${what}: every script carries the nonce: ${tag.slice(0, 120)}`);
    assert.equal(directives.get('frame-ancestors'), what === "the donor's page" ? undefined : "'none'", `${what}: frame-ancestors`);
  }
  const again = policyOf(await call(app, 'GET', '/webhooks', { headers: { cookie } })).nonce;
  assert.notEqual(again, policyOf(pages['a console page']).nonce, 'a fresh nonce per request');
  // A policy the client sends on its request is not the one Next reads its nonce from.
  const forged = await call(app, 'GET', '/login', { headers: { 'content-security-policy': "script-src 'nonce-Zm9yZ2VkLW5vbmNlLTEyMzQ1'" } });
  assert.ok(!forged.text.includes('Zm9yZ2VkLW5vbmNlLTEyMzQ1'), 'the forged nonce is on no script');
  assert.ok(forged.text.includes(` nonce="${policyOf(forged).nonce}"`));
  const shared = await call(app, 'GET', '/share/shr_no_such_link_000000000000000');
  assert.equal(shared.status, 404);
  assert.equal(
    shared.headers.get('content-security-policy'),
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'a shared case keeps its own stricter policy',
  );
  assert.deepEqual([shared.headers.get('referrer-policy'), shared.headers.get('x-content-type-options')], ['no-referrer', 'nosniff']);
  const reference = policyOf(answers['the API reference']).directives;
  assert.deepEqual([reference.get('script-src'), reference.get('object-src')], ["'self'", "'none'"], 'the API reference runs its own bundle only');
});
