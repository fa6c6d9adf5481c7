import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, eventually, token, type TResponse } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

let app: TSharedApp;
let tok: string;
let otherTok: string;
/** The Connect most tests share. */
let main: TConnect;
before(async () => {
  app = await sharedApp({ accounts: ['other'] });
  tok = await token(app);
  otherTok = await token(app, app.clients.other);
  main = await newConnect();
});
after(() => app?.stop());

const TRACKING = /^GC-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;
const GRANT_KEYS = [
  'amount',
  'coveredFees',
  'connectId',
  'createdAt',
  'email',
  'feeAmount',
  'firstName',
  'fundId',
  'fundName',
  'id',
  'lastName',
  'metadata',
  'note',
  'nonprofitId',
  'phone',
  'status',
  'trackingId',
  'updatedAt',
  'workflowSessionId',
].sort();

let seq = Math.floor(Math.random() * 9_000_000);
const newEin = () => `45${String(seq++ % 10_000_000).padStart(7, '0')}`;

type TConnect = { id: string; nonprofitId: string; apiKey: string; name: string };

/** A fresh nonprofit and the account's Connect for it, with its API key. */
async function newConnect(t = tok, name = 'Harbor Literacy Project'): Promise<TConnect> {
  const np = await call(app, 'POST', '/v1/nonprofits', { token: t, body: { ein: newEin(), name, user: { email: 'ed@example.org' } } });
  assert.equal(np.status, 201, np.text);
  const created = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: t });
  assert.equal(created.status, 201, created.text);
  const got = await call(app, 'GET', `/v1/connects/${created.body.id}`, { token: t });
  assert.equal(got.status, 200, got.text);
  return got.body;
}

const grantBody = (extra: Record<string, unknown> = {}) => ({
  amount: 15000,
  fundId: 'fidelity-charitable',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.org',
  ...extra,
});

function postGrant(connect: TConnect, body: unknown, opts: { headers?: Record<string, string>; token?: string } = {}) {
  return call(app, 'POST', '/v1/grants', { token: opts.token ?? tok, body, headers: { 'x-service-api-key': connect.apiKey, ...opts.headers } });
}

function listGrants(connect: TConnect, query = '', t = tok) {
  return call(app, 'GET', `/v1/grants${query}`, { token: t, headers: { 'x-service-api-key': connect.apiKey } });
}

async function allGrants(connect: TConnect): Promise<{ id: string; trackingId: string; amount: number }[]> {
  const res = await listGrants(connect, '?pageLimit=100');
  assert.equal(res.status, 200, res.text);
  return res.body.results;
}

describe('POST /v1/grants (EXT)', () => {
  test('201 with the Grant: Initiated, a tracking id, the fee, the fund', async () => {
    const res = await postGrant(main, grantBody());
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), GRANT_KEYS);
    const g = res.body;
    assert.equal(g.status, 'Initiated');
    assert.match(g.trackingId, TRACKING);
    assert.equal(g.connectId, main.id);
    assert.equal(g.nonprofitId, main.nonprofitId);
    assert.equal(g.amount, 15000);
    assert.equal(g.feeAmount, 435); // 2.9 %
    assert.equal(g.coveredFees, false);
    assert.equal(g.fundId, 'fidelity-charitable');
    assert.equal(g.fundName, 'Fidelity Charitable');
    assert.equal(g.phone, null);
    assert.equal(g.note, null);
    assert.deepEqual(g.metadata, {});
    assert.match(g.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const listed = (await allGrants(main)).find((x) => x.id === g.id);
    assert.deepEqual(listed, g);
  });

  test('optional fields round-trip; fees round to the cent', async () => {
    const res = await postGrant(
      main,
      grantBody({
        amount: 1234,
        coveredFees: true,
        phone: '15551234567',
        note: 'In memory of A.',
        metadata: { campaign: 'gala' },
        fundId: 'schwab-charitable',
      }),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.feeAmount, 36); // 35.786
    assert.equal(res.body.coveredFees, true);
    assert.equal(res.body.phone, '15551234567');
    assert.equal(res.body.note, 'In memory of A.');
    assert.deepEqual(res.body.metadata, { campaign: 'gala' });
    assert.equal(res.body.fundName, 'Schwab Charitable');
  });

  test('the amount bounds are inclusive', async () => {
    for (const amount of [100, 100_000_000]) {
      const res = await postGrant(main, grantBody({ amount }));
      assert.equal(res.status, 201, res.text);
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['amount below 100', grantBody({ amount: 99 }), 'amount'],
    ['amount above 100 000 000', grantBody({ amount: 100_000_001 }), 'amount'],
    ['amount with cents fraction', grantBody({ amount: 150.5 }), 'amount'],
    ['amount as a string', grantBody({ amount: '15000' }), 'amount'],
    ['amount missing', { ...grantBody(), amount: undefined }, 'amount'],
    ['unknown fundId', grantBody({ fundId: 'acme-daf' }), 'fundId'],
    ['fundId missing', { ...grantBody(), fundId: undefined }, 'fundId'],
    ['firstName missing', { ...grantBody(), firstName: undefined }, 'firstName'],
    ['firstName blank', grantBody({ firstName: '   ' }), 'firstName'],
    ['lastName over 100', grantBody({ lastName: 'x'.repeat(101) }), 'lastName'],
    ['email invalid', grantBody({ email: 'grace@' }), 'email'],
    ['phone with dashes', grantBody({ phone: '555-123-4567' }), 'phone'],
    ['note over 1000', grantBody({ note: 'n'.repeat(1001) }), 'note'],
    ['coveredFees not a boolean', grantBody({ coveredFees: 'yes' }), 'coveredFees'],
    ['metadata with a number', grantBody({ metadata: { n: 1 } }), 'metadata.n'],
    ['unknown field', grantBody({ currency: 'USD' }), ''],
  ];
  for (const [name, body, path] of invalid) {
    test(`${name} → 400 naming ${path || 'the body'}, no grant`, async () => {
      const c = await newConnect();
      const res = await postGrant(c, body);
      const problem = assertProblem(res, 400);
      assert.ok(
        problem.errors?.some((e: { path: string }) => e.path === path),
        `an error at "${path}": ${res.text}`,
      );
      assert.equal((await allGrants(c)).length, 0);
    });
  }

  test('a missing field "is required"; a wrong type says what it must be; the detail names the first', async () => {
    const missing = assertProblem(await postGrant(main, { ...grantBody(), amount: undefined, email: undefined }), 400);
    assert.deepEqual(missing.errors, [
      { path: 'amount', message: 'is required' },
      { path: 'email', message: 'is required' },
    ]);
    assert.equal(missing.detail, 'Invalid body: amount: is required (and 1 more).');
    const wrong = assertProblem(await postGrant(main, grantBody({ amount: '15000' })), 400);
    assert.deepEqual(wrong.errors, [{ path: 'amount', message: 'must be a whole number of cents' }]);
    assert.equal(wrong.detail, 'Invalid body: amount: must be a whole number of cents.');
  });

  const transport: [string, Parameters<typeof call>[3], number, RegExp][] = [
    ['malformed JSON', { raw: '{"amount": 1', headers: { 'content-type': 'application/json' } }, 400, /not valid JSON/],
    ['no body', {}, 400, /body is required/],
    ['text/plain', { raw: JSON.stringify(grantBody()), headers: { 'content-type': 'text/plain' } }, 415, /JSON/],
    [
      'a body over 256 KiB',
      { raw: JSON.stringify(grantBody({ note: 'x'.repeat(300 * 1024) })), headers: { 'content-type': 'application/json' } },
      413,
      /limit/,
    ],
    ['a bad Idempotency-Key', { body: grantBody(), headers: { 'idempotency-key': 'k'.repeat(256) } }, 400, /Idempotency-Key/],
  ];
  for (const [name, opts, status, detail] of transport) {
    test(`${name} → ${status}`, async () => {
      const res = await call(app, 'POST', '/v1/grants', { token: tok, ...opts, headers: { 'x-service-api-key': main.apiKey, ...opts?.headers } });
      assertProblem(res, status, detail);
    });
  }
});

describe('POST /v1/grants ahead of Next (lib/service/grants/grant-fast-path.ts)', () => {
  // A plain POST /v1/grants is served by the route's handler before Next's pipeline; the same
  // request with a query goes through Next. Both answer alike: status, headers, body — but for
  // compression: Next gzips the small answer for a client that accepts it (fetch does), the fast path
  // sends it as is.
  const hopByHop = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding', 'vary']);
  const headerNames = (h: Headers) => [...h.keys()].filter((k) => !hopByHop.has(k)).sort();
  const cases: [string, { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> }, number][] = [
    ['a grant', { body: grantBody() }, 201],
    ['an Idempotency-Key', { body: grantBody(), headers: { 'idempotency-key': `fast-${Math.random()}` } }, 201],
    ['malformed JSON', { raw: '{"amount": 1', headers: { 'content-type': 'application/json' } }, 400],
    ['a missing field', { body: { amount: 15000 } }, 400],
    ['no token', { token: '', body: grantBody() }, 401],
    ['an unknown API key', { body: grantBody(), headers: { 'x-service-api-key': 'gc_unknown_key' } }, 403],
  ];
  for (const [name, opts, status] of cases) {
    test(`${name} → ${status} on both paths, with the same headers`, async () => {
      // An Idempotency-Key of its own per path (the same key twice would be a replay).
      const key = (path: string): Record<string, string> =>
        opts.headers?.['idempotency-key'] ? { 'idempotency-key': `${opts.headers['idempotency-key']}-${path.length}` } : {};
      const send = (path: string) =>
        call(app, 'POST', path, {
          token: tok,
          ...opts,
          headers: { 'x-service-api-key': main.apiKey, 'x-request-id': 'req_fastpath_check', ...opts.headers, ...key(path) },
        });
      const [fast, next] = [await send('/v1/grants'), await send('/v1/grants?via=next')];
      for (const res of [fast, next]) {
        assert.equal(res.status, status, res.text);
        assert.equal(res.headers.get('x-request-id'), 'req_fastpath_check');
        assert.equal(res.headers.get('cache-control'), 'no-store');
      }
      assert.deepEqual(headerNames(fast.headers), headerNames(next.headers));
      assert.equal(fast.headers.get('content-type'), next.headers.get('content-type'));
      assert.equal(fast.headers.get('www-authenticate'), next.headers.get('www-authenticate'));
      if (status === 201) {
        assert.deepEqual(Object.keys(fast.body).sort(), GRANT_KEYS);
        assert.deepEqual(Object.keys(next.body).sort(), GRANT_KEYS);
        assert.equal(fast.headers.get('location'), `/v1/grants/${fast.body.id}`);
        assert.notEqual(fast.body.id, next.body.id);
      } else assert.deepEqual(fast.body, next.body);
    });
  }
});

describe('EXT GET /v1/grants/{id}', () => {
  const getGrant = (path: string, connect: TConnect, t = tok) => call(app, 'GET', path, { token: t, headers: { 'x-service-api-key': connect.apiKey } });

  test('POST answers 201 with Location (a replay too), and GET there answers the same Grant', async () => {
    const headers = { 'idempotency-key': `location-${Math.random()}` };
    const res = await postGrant(main, grantBody({ note: 'located' }), { headers });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('location'), `/v1/grants/${res.body.id}`);
    const replay = await postGrant(main, grantBody({ note: 'located' }), { headers });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.headers.get('location'), `/v1/grants/${res.body.id}`);
    const got = await getGrant(res.headers.get('location')!, main);
    assert.equal(got.status, 200, got.text);
    assert.ok(got.headers.get('x-request-id'));
    assert.deepEqual(got.body, res.body);
  });

  test('a grant of another Connect or account, or an unknown id → 404; an id that is not a UUID → 400', async () => {
    const mine = await postGrant(main, grantBody());
    assert.equal(mine.status, 201, mine.text);
    const sibling = await newConnect();
    const theirs = await newConnect(otherTok);
    assertProblem(await getGrant(`/v1/grants/${mine.body.id}`, sibling), 404);
    const foreign = await getGrant(`/v1/grants/${mine.body.id}`, theirs, otherTok);
    assertProblem(foreign, 404);
    assert.doesNotMatch(foreign.text, /Grace|trackingId/);
    assertProblem(await getGrant('/v1/grants/5b0c8a4e-2f7d-4c1e-9a3b-6d8e0f1a2b3c', main), 404);
    assertProblem(await getGrant('/v1/grants/not-a-uuid', main), 400, /UUID/);
  });

  test('no token → 401; the token alone is enough (its account’s grants); a bad or foreign API key → 403; wrong method → 405 with Allow', async () => {
    const mine = await postGrant(main, grantBody());
    const path = `/v1/grants/${mine.body.id}`;
    assertProblem(await call(app, 'GET', path, { headers: { 'x-service-api-key': main.apiKey } }), 401);
    const alone = await call(app, 'GET', path, { token: tok });
    assert.equal(alone.status, 200, alone.text);
    assert.deepEqual(alone.body, mine.body);
    assertProblem(await call(app, 'GET', path, { token: otherTok }), 404);
    assertProblem(await call(app, 'GET', path, { token: tok, headers: { 'x-service-api-key': 'sk_test_' + 'A'.repeat(32) } }), 403, /not valid/);
    assertProblem(await call(app, 'GET', path, { token: otherTok, headers: { 'x-service-api-key': main.apiKey } }), 403, /another account/);
    const res = await call(app, 'DELETE', path, { token: tok, headers: { 'x-service-api-key': main.apiKey } });
    assertProblem(res, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });
});

describe('the API key (x-service-api-key)', () => {
  let theirs: TConnect;
  before(async () => {
    theirs = await newConnect(otherTok);
  });

  const cases: [string, () => Record<string, string>, RegExp][] = [
    ['missing', () => ({}), /API key is required/],
    ['unknown', () => ({ 'x-service-api-key': 'sk_test_' + 'A'.repeat(32) }), /not valid/],
    ['of another account', () => ({ 'x-service-api-key': theirs.apiKey }), /another account/],
  ];
  for (const [name, headers, detail] of cases) {
    test(`${name} → 403 saying so, for list and create`, async () => {
      assertProblem(await call(app, 'GET', '/v1/grants', { token: tok, headers: headers() }), 403, detail);
      assertProblem(await call(app, 'POST', '/v1/grants', { token: tok, headers: headers(), body: grantBody() }), 403, detail);
    });
  }

  test('the other account cannot list or create grants with our key', async () => {
    const res = await listGrants(main, '', otherTok);
    assertProblem(res, 403, /another account/);
    assert.doesNotMatch(res.text, /trackingId/);
    const before = (await allGrants(main)).length;
    assertProblem(await postGrant(main, grantBody(), { token: otherTok }), 403);
    assert.equal((await allGrants(main)).length, before);
    // …and their own key sees only their own grants.
    const mine = await postGrant(theirs, grantBody(), { token: otherTok });
    assert.equal(mine.status, 201, mine.text);
    const list = await listGrants(theirs, '', otherTok);
    assert.deepEqual(
      list.body.results.map((g: { id: string }) => g.id),
      [mine.body.id],
    );
  });

  test('no token → 401 before anything else', async () => {
    assertProblem(await call(app, 'GET', '/v1/grants', { headers: { 'x-service-api-key': main.apiKey } }), 401);
    assertProblem(await call(app, 'POST', '/v1/grants', { headers: { 'x-service-api-key': main.apiKey }, body: grantBody() }), 401);
  });

  test('wrong method → 405 with Allow', async () => {
    const res = await call(app, 'DELETE', '/v1/grants', { token: tok, headers: { 'x-service-api-key': main.apiKey } });
    assertProblem(res, 405);
    assert.match(res.headers.get('allow') ?? '', /GET/);
    assert.match(res.headers.get('allow') ?? '', /POST/);
  });
});

describe('GET /v1/grants paging', () => {
  let c: TConnect;
  const created: string[] = [];
  before(async () => {
    c = await newConnect();
    for (let i = 0; i < 25; i++) {
      const res = await postGrant(c, grantBody({ amount: 1000 + i }));
      assert.equal(res.status, 201, res.text);
      created.push(res.body.id);
    }
  });

  test('pages of 10 walk all 25 grants, newest first, no nextPageToken on the last page', async () => {
    const seen: { id: string; createdAt: string }[] = [];
    const sizes: number[] = [];
    let pageToken: string | undefined;
    let last: TResponse | undefined;
    for (let page = 0; page < 10; page++) {
      last = await listGrants(c, `?pageLimit=10${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(last.status, 200, last.text);
      sizes.push(last.body.results.length);
      seen.push(...last.body.results);
      pageToken = last.body.nextPageToken;
      if (!pageToken) break;
    }
    assert.deepEqual(sizes, [10, 10, 5]);
    assert.equal('nextPageToken' in last!.body, false);
    assert.equal(new Set(seen.map((g) => g.id)).size, 25);
    assert.deepEqual(
      seen.map((g) => g.id),
      [...created].reverse(),
    );
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].createdAt >= seen[i].createdAt, 'newest first');
  });

  test('the default page is 10; a page exactly at the end has no token', async () => {
    const res = await listGrants(c);
    assert.equal(res.body.results.length, 10);
    assert.ok(res.body.nextPageToken);
    const all = await listGrants(c, '?pageLimit=25');
    assert.equal(all.body.results.length, 25);
    assert.equal(all.body.nextPageToken, undefined);
  });

  test('a page token of one Connect is refused by another Connect’s list', async () => {
    const token = (await listGrants(c, '?pageLimit=2')).body.nextPageToken;
    assert.ok(token);
    const other = await newConnect();
    await postGrant(other, grantBody());
    assertProblem(await listGrants(other, `?pageToken=${encodeURIComponent(token)}`), 400, /pageToken/);
    assert.equal((await listGrants(c, `?pageToken=${encodeURIComponent(token)}`)).status, 200);
  });

  test('a Connect with no grants → an empty page', async () => {
    const empty = await newConnect();
    const res = await listGrants(empty);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { results: [] });
  });

  const bad: [string, string][] = [
    ['pageLimit 0', '?pageLimit=0'],
    ['pageLimit 101', '?pageLimit=101'],
    ['pageLimit abc', '?pageLimit=abc'],
    ['pageLimit 1.5', '?pageLimit=1.5'],
    ['pageLimit -1', '?pageLimit=-1'],
    ['pageToken garbage', '?pageToken=garbage'],
    ['pageToken with a foreign id', `?pageToken=${Buffer.from(JSON.stringify({ t: new Date().toISOString(), id: 'not-a-uuid' })).toString('base64url')}`],
  ];
  for (const [name, query] of bad) {
    test(`${name} → 400`, async () => {
      assertProblem(await listGrants(c, query), 400, /page/);
    });
  }
});

describe('Idempotency-Key', () => {
  test('the same key twice → the same 201 and body, one grant', async () => {
    const c = await newConnect();
    const headers = { 'idempotency-key': `key-${Math.random()}` };
    const first = await postGrant(c, grantBody(), { headers });
    const second = await postGrant(c, grantBody(), { headers });
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal((await allGrants(c)).length, 1);
    // The key is per request body: key order does not matter…
    const reordered = await postGrant(c, Object.fromEntries(Object.entries(grantBody()).reverse()), { headers });
    assert.deepEqual(reordered.body, first.body);
    // …another body with the same key is a conflict, and another key is another grant.
    assertProblem(await postGrant(c, grantBody({ amount: 999 }), { headers }), 409, /Idempotency-Key/);
    assert.equal((await postGrant(c, grantBody(), { headers: { 'idempotency-key': 'another' } })).status, 201);
    assert.equal((await allGrants(c)).length, 2);
  });

  test('keys are per Connect', async () => {
    const a = await newConnect();
    const b = await newConnect();
    const headers = { 'idempotency-key': 'shared-key' };
    const ga = await postGrant(a, grantBody(), { headers });
    const gb = await postGrant(b, grantBody(), { headers });
    assert.equal(gb.status, 201);
    assert.notEqual(ga.body.id, gb.body.id);
  });

  test('10 concurrent requests with one key → one grant, every answer the same', async () => {
    const c = await newConnect();
    const headers = { 'idempotency-key': `race-${Math.random()}` };
    const results = await Promise.all(Array.from({ length: 10 }, () => postGrant(c, grantBody(), { headers })));
    for (const r of results) assert.equal(r.status, 201, r.text);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    assert.equal((await allGrants(c)).length, 1);
  });

  test('a refused request does not burn its key', async () => {
    const c = await newConnect();
    const headers = { 'idempotency-key': `retry-${Math.random()}` };
    assertProblem(await postGrant(c, grantBody({ fundId: 'nope' }), { headers }), 400);
    const ok = await postGrant(c, grantBody(), { headers });
    assert.equal(ok.status, 201, ok.text);
  });
});

describe('grant.succeeded', () => {
  test('creating a grant queues grant.succeeded with the Grant as data, for a subscribed webhook', async () => {
    const hook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: `${app.baseUrl}/nowhere`, eventTypes: ['grant.succeeded'] } });
    assert.equal(hook.status, 201, hook.text);
    const grant = await postGrant(main, grantBody({ note: 'event check' }));
    assert.equal(grant.status, 201, grant.text);
    const message = await eventually(
      async () => {
        const list = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages?pageLimit=100`, { token: tok });
        return list.body.results?.find((m: { eventType: string }) => m.eventType === 'grant.succeeded');
      },
      10000,
      'a grant.succeeded message',
    );
    const full = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages/${message.id}`, { token: tok });
    assert.equal(full.status, 200, full.text);
    assert.equal(full.body.payload.type, 'grant.succeeded');
    assert.match(full.body.payload.timestamp, /Z$/);
    assert.deepEqual(full.body.payload.data, grant.body);
    // With an Idempotency-Key the grant and its event are written in the key's transaction (emitEvent), not by the fixed statement: the same message.
    const keyed = await postGrant(main, grantBody({ note: 'event check, keyed' }), { headers: { 'idempotency-key': `event-${Date.now()}` } });
    assert.equal(keyed.status, 201, keyed.text);
    const other = await eventually(
      async () => {
        const list = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages?pageLimit=100`, { token: tok });
        return list.body.results?.find((m: { id: string }) => m.id !== message.id);
      },
      10000,
      'the keyed grant’s message',
    );
    const keyedFull = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages/${other.id}`, { token: tok });
    assert.deepEqual(keyedFull.body.payload.data, keyed.body);
    assert.deepEqual(Object.keys(keyedFull.body).sort(), Object.keys(full.body).sort());
    assert.deepEqual(
      keyedFull.body.tags.map((t: string) => t.split(':')[0]),
      full.body.tags.map((t: string) => t.split(':')[0]),
    );
  });

  test('the body sent is JSON.stringify({type, timestamp, data}) byte for byte, timestamp = the message time, whatever the donor typed', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = receiver.endpoint();
      const hook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: endpoint.url, eventTypes: ['grant.succeeded'] } });
      assert.equal(hook.status, 201, hook.text);
      const note = `quotes " and \\ backslash, ' apostrophe, ünïcödé, 寄付 and 🎁 || to_char('x')`;
      const grant = await postGrant(main, grantBody({ firstName: 'Zoë', note, metadata: { 'key"': 'a\nb' } }));
      assert.equal(grant.status, 201, grant.text);
      const req = await eventually(async () => endpoint.requests().find((r) => r.body.includes(grant.body.id)), 10000, 'the delivery');
      const sent = JSON.parse(req.body);
      assert.equal(req.body, JSON.stringify({ type: 'grant.succeeded', timestamp: sent.timestamp, data: grant.body }));
      assert.equal(sent.data.note, note);
      const message = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages/${req.headers['webhook-id']}`, { token: tok });
      assert.equal(message.status, 200, message.text);
      assert.equal(message.body.timestamp, sent.timestamp);
      await call(app, 'DELETE', `/v1/webhooks/${hook.body.id}`, { token: tok });
    } finally {
      await receiver.close();
    }
  });
});

/* ------------------------------------------------------------ the donor page */

function form(fields: Record<string, string>) {
  return { raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/** The confirmation cookie a give response sets, as a Cookie header value. */
function thanksCookie(res: TResponse): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gc_thanks='));
  assert.ok(cookie, `a gc_thanks cookie: ${res.headers.getSetCookie().join(' | ')}`);
  return cookie.split(';')[0];
}

const donor = (extra: Record<string, string> = {}) => ({
  fundId: 'vanguard-charitable',
  amount: '150',
  firstName: 'Katherine',
  lastName: 'Johnson',
  email: 'kj@example.org',
  phone: '+1 (555) 010-2030',
  note: 'For the reading room',
  coverFees: 'on',
  ...extra,
});

describe('the Connect page /connect/{cid}', () => {
  let page: TConnect;
  before(async () => {
    page = await newConnect(tok, 'Hope & Harbor <Kids>');
  });

  test('renders the nonprofit name and the form', async () => {
    const res = await call(app, 'GET', `/connect/${page.id}`);
    assert.equal(res.status, 200, res.text.slice(0, 500));
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(res.text.includes('Hope &amp; Harbor &lt;Kids&gt;'), 'the name, escaped');
    assert.ok(res.text.includes(`action="/connect/${page.id}/give"`));
    for (const name of ['Fidelity Charitable', 'Schwab Charitable', 'Vanguard Charitable']) assert.ok(res.text.includes(name));
    for (const field of ['fundId', 'amount', 'firstName', 'lastName', 'email', 'phone', 'note', 'coverFees', 'formToken']) {
      assert.match(res.text, new RegExp(`name="${field}"`), field);
    }
    assert.doesNotMatch(res.text, /sk_test_/);
  });

  test('submitting → 303 to the thanks page with the tracking id; the grant is in the API', async () => {
    const res = await call(app, 'POST', `/connect/${page.id}/give`, form(donor()));
    assert.equal(res.status, 303, res.text);
    const location = res.headers.get('location') ?? '';
    const match = new RegExp(`^/connect/${page.id}/thanks\\?t=(GC-[A-Z0-9]{6})$`).exec(location);
    assert.ok(match, location);
    const trackingId = match[1];

    const cookie = thanksCookie(res);
    const thanks = await call(app, 'GET', location, { headers: { cookie } });
    assert.equal(thanks.status, 200);
    assert.ok(thanks.text.includes(trackingId));
    assert.ok(thanks.text.includes('$150.00'));
    assert.ok(thanks.text.includes('Vanguard Charitable'));
    assert.ok(thanks.text.includes('Katherine'));

    const grant = (await allGrants(page)).find((g) => g.trackingId === trackingId) as Record<string, unknown> | undefined;
    assert.ok(grant, 'the page grant is listed');
    assert.equal(grant.amount, 15000);
    assert.equal(grant.feeAmount, 435);
    assert.equal(grant.coveredFees, true);
    assert.equal(grant.fundId, 'vanguard-charitable');
    assert.equal(grant.phone, '15550102030');
    assert.equal(grant.email, 'kj@example.org');
    assert.equal(grant.note, 'For the reading room');
    assert.equal(grant.status, 'Initiated');
  });

  test('a preset amount is used when no other amount is typed; cents are kept', async () => {
    const preset = await call(app, 'POST', `/connect/${page.id}/give`, form(donor({ amount: '', preset: '50', coverFees: '' })));
    assert.equal(preset.status, 303);
    const t1 = new URL(preset.headers.get('location')!, app.baseUrl).searchParams.get('t');
    const typed = await call(app, 'POST', `/connect/${page.id}/give`, form(donor({ amount: '$1,234.50', preset: '50' })));
    const t2 = new URL(typed.headers.get('location')!, app.baseUrl).searchParams.get('t');
    const grants = await allGrants(page);
    const g1 = grants.find((g) => g.trackingId === t1) as Record<string, unknown>;
    const g2 = grants.find((g) => g.trackingId === t2) as Record<string, unknown>;
    assert.equal(g1.amount, 5000);
    assert.equal(g1.coveredFees, false);
    assert.equal(g2.amount, 123450);
  });

  test('a double submission of one form makes one grant', async () => {
    const fields = donor({ formToken: 'Abc123Def456Ghi789Jkl012' });
    const first = await call(app, 'POST', `/connect/${page.id}/give`, form(fields));
    const second = await call(app, 'POST', `/connect/${page.id}/give`, form(fields));
    assert.equal(first.status, 303);
    assert.equal(second.headers.get('location'), first.headers.get('location'));
    const t = new URL(first.headers.get('location')!, app.baseUrl).searchParams.get('t');
    assert.equal((await allGrants(page)).filter((g) => g.trackingId === t).length, 1);
  });

  const invalid: [string, Record<string, string>, string[], RegExp][] = [
    ['a bad email', { email: 'kj@' }, ['email'], /Enter a valid email address/],
    ['no fund', { fundId: '' }, ['fundId'], /Choose the donor-advised fund/],
    ['an unknown fund', { fundId: 'acme' }, ['fundId'], /Choose the donor-advised fund/],
    ['an amount under $1', { amount: '0.50' }, ['amount'], /from \$1 to \$1,000,000/],
    ['an amount that is not one', { amount: 'ten' }, ['amount'], /from \$1 to \$1,000,000/],
    ['no amount at all', { amount: '' }, ['amount'], /from \$1 to \$1,000,000/],
    ['a short phone', { phone: '12345' }, ['phone'], /10 to 15 digits/],
    ['no names', { firstName: '', lastName: '' }, ['firstName', 'lastName'], /first name/],
  ];
  for (const [name, change, codes, message] of invalid) {
    test(`${name} → 303 back to the form, which says what is wrong and keeps the input`, async () => {
      const before = (await allGrants(page)).length;
      const res = await call(app, 'POST', `/connect/${page.id}/give`, form(donor(change)));
      assert.equal(res.status, 303, res.text);
      const location = res.headers.get('location') ?? '';
      assert.equal(location, `/connect/${page.id}?error=${codes.join(',')}#give`);
      const cookie = /gc_give_form=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
      assert.ok(cookie, 'the input rides in a cookie');
      const back = await call(app, 'GET', location.replace(/#.*/, ''), { headers: { cookie } });
      assert.equal(back.status, 200);
      assert.match(back.text, message);
      assert.match(back.text, /role="alert"/);
      if (!('lastName' in change)) assert.ok(back.text.includes('value="Johnson"'), 'the input is kept');
      assert.equal((await allGrants(page)).length, before, 'no grant');
    });
  }

  test('the confirmation shows the gift only in the browser that gave: a short-lived, httpOnly cookie of this Connect', async () => {
    const res = await call(app, 'POST', `/connect/${page.id}/give`, form(donor({ firstName: 'Zenobia', amount: '321' })));
    assert.equal(res.status, 303, res.text);
    const location = res.headers.get('location')!;
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('gc_thanks='))!;
    assert.match(setCookie, /; Path=\/connect\/test_[0-9A-Za-z]{27}(;|$)/);
    assert.ok(setCookie.includes(`Path=/connect/${page.id}`), setCookie);
    assert.match(setCookie, /; HttpOnly/i);
    assert.match(setCookie, /; SameSite=Lax/i);
    assert.match(setCookie, /; Max-Age=3600/i);

    const mine = await call(app, 'GET', location, { headers: { cookie: thanksCookie(res) } });
    assert.equal(mine.status, 200);
    assert.ok(mine.text.includes('Zenobia') && mine.text.includes('$321.00'));

    // Anyone else with the link: a neutral thank-you, nothing of the donor or the gift.
    const tampered = thanksCookie(res).replace(/.(?=;|$)/, (ch) => (ch === 'A' ? 'B' : 'A'));
    for (const cookie of [undefined, tampered, 'gc_thanks=junk']) {
      const other = await call(app, 'GET', location, { headers: cookie ? { cookie } : {} });
      assert.equal(other.status, 200, `cookie ${cookie}`);
      assert.match(other.text, /shown only in the browser that made the gift/);
      assert.ok(!other.text.includes('Zenobia') && !other.text.includes('$321.00') && !other.text.includes('Vanguard'), `cookie ${cookie}`);
    }

    // A second gift in the same browser keeps the first one viewable.
    const second = await call(app, 'POST', `/connect/${page.id}/give`, {
      ...form(donor({ firstName: 'Octavius' })),
      headers: { ...form({}).headers, cookie: thanksCookie(res) },
    });
    const both = thanksCookie(second);
    assert.ok((await call(app, 'GET', second.headers.get('location')!, { headers: { cookie: both } })).text.includes('Octavius'));
    assert.ok((await call(app, 'GET', location, { headers: { cookie: both } })).text.includes('Zenobia'));
  });

  test('unknown CID: the page → 404; a form post → 303 to it; a tracking id of another Connect → 404', async () => {
    const missing = await call(app, 'GET', '/connect/test_2Qx9ZbYvV9d4bR5sZQH6oYx7Jc1');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /This giving page is not available/);
    const post = await call(app, 'POST', '/connect/test_2Qx9ZbYvV9d4bR5sZQH6oYx7Jc1/give', form(donor()));
    assert.equal(post.status, 303, post.text);
    assert.equal(post.headers.get('location'), '/connect/test_2Qx9ZbYvV9d4bR5sZQH6oYx7Jc1');
    const other = await newConnect();
    const res = await call(app, 'POST', `/connect/${other.id}/give`, form(donor()));
    const location = res.headers.get('location')!;
    const cookie = thanksCookie(res);
    assert.equal((await call(app, 'GET', location, { headers: { cookie } })).status, 200);
    assert.equal((await call(app, 'GET', location.replace(other.id, page.id), { headers: { cookie } })).status, 404);
  });

  test('no or an unknown tracking id → 404 with a page saying the confirmation was not found', async () => {
    for (const query of ['', '?t=GC-ZZZZZZ', '?t=nonsense']) {
      const res = await call(app, 'GET', `/connect/${page.id}/thanks${query}`);
      assert.equal(res.status, 404, query);
      // notFound() answers with Next's error shell and the browser draws the nearest not-found
      // boundary from the flight data (vercel/next.js#62228), which also carries the Connect's own
      // not-found page: so look for this page's text, not for the absence of the other's.
      assert.match(res.text, /This confirmation was not found/, query);
    }
  });

  test('give: JSON (415) or an oversized form (413) → 303 back to the form, which says why; GET → 405', async () => {
    const cases: [Parameters<typeof call>[3], string, RegExp][] = [
      [{ body: { amount: 100 } }, 'unreadable', /could not be read/],
      [form(donor({ note: 'x'.repeat(300 * 1024) })), 'tooLarge', /too large/],
    ];
    for (const [opts, code, message] of cases) {
      const before = (await allGrants(page)).length;
      const res = await call(app, 'POST', `/connect/${page.id}/give`, opts);
      assert.equal(res.status, 303, res.text);
      assert.equal(res.headers.get('location'), `/connect/${page.id}?error=${code}#give`);
      const back = await call(app, 'GET', `/connect/${page.id}?error=${code}`);
      assert.equal(back.status, 200);
      assert.match(back.text, message);
      assert.match(back.text, /role="alert"/);
      assert.equal((await allGrants(page)).length, before, 'no grant');
    }
    assertProblem(await call(app, 'GET', `/connect/${page.id}/give`), 405);
  });

  test('a page grant also emits grant.succeeded', async () => {
    const c = await newConnect();
    const hook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: `${app.baseUrl}/nowhere-2`, eventTypes: ['grant.succeeded'] } });
    assert.equal(hook.status, 201, hook.text);
    const res = await call(app, 'POST', `/connect/${c.id}/give`, form(donor()));
    const t = new URL(res.headers.get('location')!, app.baseUrl).searchParams.get('t');
    await eventually(
      async () => {
        const list = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages?pageLimit=100`, { token: tok });
        for (const m of list.body.results ?? []) {
          const full = await call(app, 'GET', `/v1/webhooks/${hook.body.id}/messages/${m.id}`, { token: tok });
          if (full.body.payload?.data?.trackingId === t) return true;
        }
        return false;
      },
      10000,
      'the page grant event',
    );
  });
});
