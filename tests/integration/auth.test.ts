import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, type JWK } from 'jose';
import { SANDBOX } from '../helpers/app';
import { assertProblem, call, token } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// On the suite's shared app (tests/helpers/shared-app.ts) the client it exchanges, fails and guesses
// with is its own account's, never the sandbox's: a failed exchange counts against its client id
// from this address, which every file's sandbox token shares.
let app: TSharedApp;
let client: { client_id: string; client_secret: string };
before(async () => {
  app = await sharedApp({ accounts: ['acme'] });
  client = app.defaultClient ?? { client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret };
});
after(() => app?.stop());

const good = () => ({ ...client, audience: SANDBOX.audience, grant_type: 'client_credentials' });

describe('POST /oauth/token', () => {
  test('JSON exchange returns an RS256 JWT with the contract claims', async () => {
    const res = await call(app, 'POST', '/oauth/token', { body: good() });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 86400);
    assert.equal(res.body.scope, 'create:nonprofits read:nonprofits create:connects read:connects create:grants read:grants');
    const header = decodeProtectedHeader(res.body.access_token);
    assert.equal(header.alg, 'RS256');
    assert.ok(header.kid);
    const claims = decodeJwt(res.body.access_token);
    assert.equal(claims.iss, `${app.baseUrl}/`);
    assert.equal(claims.sub, `${client.client_id}@clients`);
    assert.equal(claims.aud, SANDBOX.audience);
    assert.equal(claims.azp, client.client_id);
    assert.equal(claims.gty, 'client-credentials');
    assert.equal(claims.exp! - claims.iat!, 86400);
    assert.ok(claims.jti);
    const jwks = await call(app, 'GET', '/.well-known/jwks.json');
    assert.ok(jwks.body.keys.some((k: { kid: string }) => k.kid === header.kid));
  });

  test('form-encoded exchange works too', async () => {
    const res = await call(app, 'POST', '/oauth/token', {
      raw: new URLSearchParams(good()).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.access_token);
  });

  const errors: [string, Record<string, string>, number, string][] = [
    ['wrong secret', { client_secret: 'nope-nope-nope' }, 401, 'invalid_client'],
    ['unknown client', { client_id: 'who-is-this' }, 401, 'invalid_client'],
    ['wrong audience', { audience: 'https://elsewhere.example' }, 403, 'access_denied'],
    ['wrong grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['missing secret', { client_secret: '' }, 400, 'invalid_request'],
  ];
  for (const [name, change, status, error] of errors) {
    test(`${name} → ${status} ${error}`, async () => {
      const res = await call(app, 'POST', '/oauth/token', { body: { ...good(), ...change } });
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.error, error);
      assert.equal(typeof res.body.error_description, 'string');
      assert.equal(res.body.access_token, undefined);
    });
  }

  test('parameters that are present but not strings → 400 invalid_request naming them, not "missing"', async () => {
    const one = await call(app, 'POST', '/oauth/token', { body: { ...good(), client_id: 1 } });
    assert.equal(one.status, 400, one.text);
    assert.equal(one.body.error, 'invalid_request');
    assert.equal(one.body.error_description, 'client_id must be a string.');
    const two = await call(app, 'POST', '/oauth/token', { body: { ...good(), client_secret: ['x'], audience: { a: 1 }, grant_type: undefined } });
    assert.equal(two.status, 400, two.text);
    assert.equal(two.body.error_description, 'client_secret and audience must be strings. Missing parameter: grant_type.');
  });

  test('repeated failures for one client → 429 with Retry-After; other clients unaffected', async () => {
    const target = { ...good(), client_id: `brute-force-target-${randomBytes(4).toString('hex')}`, client_secret: 'guess-guess-guess' };
    for (let i = 0; i < 10; i++) {
      const res = await call(app, 'POST', '/oauth/token', { body: target });
      assert.equal(res.status, 401, res.text);
    }
    const limited = await call(app, 'POST', '/oauth/token', { body: target });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.error, 'temporarily_unavailable');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await call(app, 'POST', '/oauth/token', { body: good() })).status, 200);
  });

  // The shared app's accounts are issued by createClient, as `npm run service -- clients:create`
  // issues them (the CLI itself runs for every account startApp issues: tests/helpers/app.ts).
  test('a client issued for another account works', async () => {
    assert.match(app.clients.acme.client_id, /^gc_/);
    assert.ok(await token(app, app.clients.acme));
  });
});

describe('bearer validation on /v1', () => {
  const probe = (t?: string) => call(app, 'GET', '/v1/nonprofit/123456789', { token: t });

  test('no token → 401 with a bare challenge', async () => {
    const res = await probe();
    assertProblem(res, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="giving-connect"');
  });

  async function forged(opts: { alg?: string; key?: 'other' | 'hs-public'; exp?: number }) {
    const real = await token(app);
    const claims = decodeJwt(real);
    const header = decodeProtectedHeader(real);
    if (opts.alg === 'none') {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`;
    }
    const body = new SignJWT({ ...claims, ...(opts.exp ? { exp: opts.exp } : {}) });
    if (opts.key === 'hs-public') {
      const jwks = (await call(app, 'GET', '/.well-known/jwks.json')).body;
      const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
      return body.setProtectedHeader({ alg: 'HS256', kid: header.kid }).sign(secret);
    }
    const { privateKey } = await generateKeyPair('RS256');
    return body.setProtectedHeader({ alg: 'RS256', kid: opts.key === 'other' ? 'someone-else' : header.kid }).sign(privateKey);
  }

  const cases: [string, Parameters<typeof forged>[0]][] = [
    ['alg none', { alg: 'none' }],
    ['HS256 signed with the public key', { key: 'hs-public' }],
    ['signed by another key (same kid)', {}],
    ['signed by another key (unknown kid)', { key: 'other' }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
  ];
  for (const [name, opts] of cases) {
    test(`${name} → 401 invalid_token`, async () => {
      const res = await probe(await forged(opts));
      assertProblem(res, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="giving-connect", error="invalid_token"/);
    });
  }

  test('a token for another audience → 401', async () => {
    // A token of this very key, as the service would have minted it while configured for another
    // audience: a real token's claims and header, signed with the app's own key, only the audience changed.
    const real = await token(app);
    const signing = await app.signingKey();
    assert.equal(decodeProtectedHeader(real).kid, signing.kid, 'the key the app signs with');
    const elsewhere = await new SignJWT({ ...decodeJwt(real), aud: 'https://elsewhere.example' })
      .setProtectedHeader(decodeProtectedHeader(real) as { alg: string })
      .sign(await importJWK(signing.privateJwk as JWK, 'RS256'));
    assertProblem(await probe(elsewhere), 401, /aud/);
    const same = await new SignJWT(decodeJwt(real))
      .setProtectedHeader(decodeProtectedHeader(real) as { alg: string })
      .sign(await importJWK(signing.privateJwk as JWK, 'RS256'));
    assert.equal((await probe(same)).status === 401, false, 'the same token with its own audience is accepted');
  });

  test('garbage in the header → 401', async () => {
    const res = await call(app, 'GET', '/v1/nonprofit/123456789', { headers: { authorization: 'Token abc' } });
    assertProblem(res, 401);
  });
});
