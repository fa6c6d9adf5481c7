import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, token } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
let app: TSharedApp;
let tok: string;
let otherTok: string;
before(async () => {
  app = await sharedApp({ accounts: ['other'] });
  tok = await token(app);
  otherTok = await token(app, app.clients.other);
});
after(() => app?.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NEVER_ASSIGNED = ['00', '07', '08', '09', '17', '18', '19', '28', '29', '49', '69', '70', '78', '79', '89', '96', '97'];

let seq = Math.floor(Math.random() * 9_000_000);
/** A fresh, valid EIN (prefix 12 is assigned). */
const newEin = () => `12${String(seq++ % 10_000_000).padStart(7, '0')}`;
const user = () => ({ email: 'ada@example.org', phone: '5551234567', firstName: 'Ada', lastName: 'Lovelace' });

async function createNonprofit(body: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: newEin(), user: user(), ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

describe('POST /v1/nonprofits', () => {
  test('registers a nonprofit: 201, Location, the Nonprofit and nothing of the contact', async () => {
    const ein = newEin();
    const res = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein, user: user() } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('location'), `/v1/nonprofit/${ein}`);
    assert.ok(res.headers.get('x-request-id'));
    assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'ein', 'id', 'name', 'preferredName', 'updatedAt', 'website']);
    assert.equal(res.body.preferredName, null, 'unset: null');
    assert.equal(res.body.website, null, 'unset: null');
    assert.match(res.body.id, UUID);
    assert.equal(res.body.ein, ein);
    assert.equal(res.body.name, `Nonprofit ${ein}`);
    assert.match(res.body.createdAt, ISO_MS);
    assert.match(res.body.updatedAt, ISO_MS);
    assert.doesNotMatch(res.text, /ada@example\.org|Lovelace|5551234567/);

    const got = await call(app, 'GET', `/v1/nonprofit/${ein}`, { token: tok });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, res.body);
  });

  test('EXT name, and only the email is required of the user', async () => {
    const res = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: newEin(), name: 'Helping Hands', user: { email: 'x@example.org' } } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'Helping Hands');
  });

  test("the public SDK's preferredName and website are stored and returned (trimmed); null stands for unset", async () => {
    const ein = newEin();
    const body = { ein, user: user(), preferredName: '  Hands Up  ', website: 'https://hands-up.example.org/about?lang=en' };
    const res = await call(app, 'POST', '/v1/nonprofits', { token: tok, body });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.preferredName, 'Hands Up');
    assert.equal(res.body.website, 'https://hands-up.example.org/about?lang=en');
    const got = await call(app, 'GET', `/v1/nonprofit/${ein}`, { token: tok });
    assert.deepEqual(got.body, res.body);
    const nulls = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: newEin(), user: user(), preferredName: null, website: null } });
    assert.equal(nulls.status, 201, nulls.text);
    assert.deepEqual([nulls.body.preferredName, nulls.body.website], [null, null]);
    const long = await call(app, 'POST', '/v1/nonprofits', {
      token: tok,
      body: { ein: newEin(), user: user(), preferredName: 'p'.repeat(200), website: `https://e.org/${'a'.repeat(2048 - 14)}` },
    });
    assert.equal(long.status, 201, 'the limits themselves are accepted: ' + long.text.slice(0, 200));
    assert.equal(long.body.website.length, 2048);
  });

  test('a repeated creation answers 201 with the existing record, unchanged', async () => {
    const first = await createNonprofit({ name: 'First Name' });
    await new Promise((r) => setTimeout(r, 20));
    const again = await call(app, 'POST', '/v1/nonprofits', {
      token: tok,
      body: { ein: first.ein, name: 'Second Name', user: { email: 'someone-else@example.org' } },
    });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('location'), `/v1/nonprofit/${first.ein}`);
    assert.deepEqual(again.body, first);
  });

  test('20 concurrent creates of one EIN make one record', async () => {
    const ein = newEin();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein, name: `Racer ${i}`, user: user() } })),
    );
    for (const r of results) assert.equal(r.status, 201, r.text);
    const ids = new Set(results.map((r) => r.body.id));
    assert.equal(ids.size, 1, `one id, got ${[...ids].join(', ')}`);
    const names = new Set(results.map((r) => r.body.name));
    assert.equal(names.size, 1, 'every answer is the one stored record');
    const got = await call(app, 'GET', `/v1/nonprofit/${ein}`, { token: tok });
    assert.equal(got.body.id, [...ids][0]);
  });

  const invalid: [string, (ein: string) => unknown, string][] = [
    ['ein missing', () => ({ user: user() }), 'ein'],
    ['ein of 8 digits', () => ({ ein: '12345678', user: user() }), 'ein'],
    ['ein of 10 digits', () => ({ ein: '1234567890', user: user() }), 'ein'],
    ['ein with a dash', () => ({ ein: '12-3456789', user: user() }), 'ein'],
    ['ein with letters', () => ({ ein: '12345678a', user: user() }), 'ein'],
    ['ein as a number', () => ({ ein: 123456789, user: user() }), 'ein'],
    ...NEVER_ASSIGNED.map((p): [string, (ein: string) => unknown, string] => [
      `ein with never-assigned prefix ${p}`,
      () => ({ ein: `${p}1234567`, user: user() }),
      'ein',
    ]),
    ['user missing', (ein) => ({ ein }), 'user'],
    ['user.email missing', (ein) => ({ ein, user: { firstName: 'Ada' } }), 'user.email'],
    ['user.email invalid', (ein) => ({ ein, user: { email: 'not-an-email' } }), 'user.email'],
    ['user.phone with dashes', (ein) => ({ ein, user: { ...user(), phone: '555-123-4567' } }), 'user.phone'],
    ['user.phone of 9 digits', (ein) => ({ ein, user: { ...user(), phone: '555123456' } }), 'user.phone'],
    ['user.phone of 16 digits', (ein) => ({ ein, user: { ...user(), phone: '5551234567890123' } }), 'user.phone'],
    ['user.firstName over 100', (ein) => ({ ein, user: { ...user(), firstName: 'a'.repeat(101) } }), 'user.firstName'],
    ['user.lastName over 100', (ein) => ({ ein, user: { ...user(), lastName: 'a'.repeat(101) } }), 'user.lastName'],
    ['name over 100', (ein) => ({ ein, user: user(), name: 'n'.repeat(101) }), 'name'],
    ['name empty', (ein) => ({ ein, user: user(), name: '' }), 'name'],
    ['preferredName over 200', (ein) => ({ ein, user: user(), preferredName: 'p'.repeat(201) }), 'preferredName'],
    ['preferredName empty', (ein) => ({ ein, user: user(), preferredName: '  ' }), 'preferredName'],
    ['preferredName a number', (ein) => ({ ein, user: user(), preferredName: 7 }), 'preferredName'],
    ['website over http', (ein) => ({ ein, user: user(), website: 'http://example.org' }), 'website'],
    ['website relative', (ein) => ({ ein, user: user(), website: '/about' }), 'website'],
    ['website not a URL', (ein) => ({ ein, user: user(), website: 'example.org' }), 'website'],
    ['website javascript:', (ein) => ({ ein, user: user(), website: 'javascript:alert(1)' }), 'website'],
    ['website over 2048', (ein) => ({ ein, user: user(), website: `https://example.org/${'a'.repeat(2030)}` }), 'website'],
    ['unknown field', (ein) => ({ ein, user: user(), homepage: 'https://example.org' }), ''],
    ['unknown field in user', (ein) => ({ ein, user: { ...user(), title: 'CEO' } }), 'user'],
    ['an array', () => [], ''],
    ['null', () => null, ''],
  ];
  for (const [name, body, path] of invalid) {
    test(`${name} → 400 naming ${path || 'the body'}, nothing stored`, async () => {
      const ein = newEin();
      const res = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: body(ein) });
      const problem = assertProblem(res, 400);
      assert.ok(Array.isArray(problem.errors) && problem.errors.length > 0, res.text);
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `an error at "${path}": ${res.text}`,
      );
      if (name.startsWith('unknown field')) assert.match(res.body.detail, /unknown field/);
      assertProblem(await call(app, 'GET', `/v1/nonprofit/${ein}`, { token: tok }), 404);
    });
  }

  test('a missing field "is required" (nested too); a wrong type says what it must be', async () => {
    const empty = assertProblem(await call(app, 'POST', '/v1/nonprofits', { token: tok, body: {} }), 400);
    assert.deepEqual(empty.errors, [
      { path: 'ein', message: 'is required' },
      { path: 'user', message: 'is required' },
    ]);
    assert.equal(empty.detail, 'Invalid body: ein: is required (and 1 more).');
    const noEmail = assertProblem(await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: newEin(), user: { firstName: 'Ada' } } }), 400);
    assert.deepEqual(noEmail.errors, [{ path: 'user.email', message: 'is required' }]);
    assert.equal(noEmail.detail, 'Invalid body: user.email: is required.');
    const wrong = assertProblem(await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: 123456789, user: { email: null } } }), 400);
    assert.deepEqual(wrong.errors, [
      { path: 'ein', message: 'must be a string of 9 digits' },
      { path: 'user.email', message: 'must be a valid email address' },
    ]);
  });

  const transport: [string, Parameters<typeof call>[3], number, RegExp][] = [
    ['malformed JSON', { raw: '{"ein": "123', headers: { 'content-type': 'application/json' } }, 400, /not valid JSON/],
    ['no body', {}, 400, /body is required/],
    ['text/plain', { raw: JSON.stringify({ ein: '123456789', user: user() }), headers: { 'content-type': 'text/plain' } }, 415, /JSON/],
    [
      'a body over 256 KiB',
      { raw: JSON.stringify({ ein: '123456789', user: user(), name: 'x'.repeat(300 * 1024) }), headers: { 'content-type': 'application/json' } },
      413,
      /limit/,
    ],
  ];
  for (const [name, opts, status, detail] of transport) {
    test(`${name} → ${status}`, async () => {
      assertProblem(await call(app, 'POST', '/v1/nonprofits', { token: tok, ...opts }), status, detail);
    });
  }

  test('no token → 401 with a challenge', async () => {
    const res = await call(app, 'POST', '/v1/nonprofits', { body: { ein: newEin(), user: user() } });
    assertProblem(res, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="giving-connect"');
  });

  test('wrong method → 405 with Allow', async () => {
    const res = await call(app, 'PUT', '/v1/nonprofits', { token: tok, body: {} });
    assertProblem(res, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
  });
});

describe('EXT GET /v1/nonprofits (list and search)', () => {
  // A word no other test's names hold, so the searches see only this describe's nonprofits.
  const word = `Zephyr${Math.random().toString(36).slice(2, 8)}`;
  let listed: { ein: string; id: string }[] = [];
  let cid = '';
  before(async () => {
    listed = [];
    for (const i of [1, 2, 3]) listed.push(await createNonprofit({ name: `${word} Food Bank ${i}` }));
    const connect = await call(app, 'POST', `/v1/connects?nonprofit=${listed[1].id}`, { token: tok, body: { name: `${word} donations` } });
    assert.equal(connect.status, 201, connect.text);
    cid = connect.body.id;
  });
  const list = (query: string, t = tok) => call(app, 'GET', `/v1/nonprofits?${query}`, { token: t });

  test("a name fragment (any case) finds them newest first, each with this account's Connect or null", async () => {
    const res = await list(`q=${word.toLowerCase()}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.results.map((n: { ein: string }) => n.ein),
      [listed[2].ein, listed[1].ein, listed[0].ein],
    );
    assert.equal(res.body.nextPageToken, undefined);
    const withConnect = res.body.results[1];
    assert.deepEqual(Object.keys(withConnect).sort(), ['connect', 'createdAt', 'ein', 'id', 'name', 'preferredName', 'updatedAt', 'website']);
    assert.deepEqual(Object.keys(withConnect.connect).sort(), ['active', 'createdAt', 'id', 'name']);
    assert.equal(withConnect.connect.id, cid);
    assert.equal(withConnect.connect.name, `${word} donations`);
    assert.equal(res.body.results[0].connect, null);
    assert.doesNotMatch(res.text, /ada@example\.org|apiKey|sk_test_/, 'no contact, no API key');
  });

  test("by EIN (whole, its first digits, with a dash), by CID (whole or its start), by the Connect's name", async () => {
    const ein = listed[0].ein;
    assert.deepEqual(
      (await list(`q=${ein}`)).body.results.map((n: { ein: string }) => n.ein),
      [ein],
    );
    assert.deepEqual(
      (await list(`q=${ein.slice(0, 2)}-${ein.slice(2)}`)).body.results.map((n: { ein: string }) => n.ein),
      [ein],
    );
    assert.ok((await list(`q=${ein.slice(0, 5)}&pageLimit=100`)).body.results.some((n: { ein: string }) => n.ein === ein));
    for (const q of [cid, cid.slice(0, 12), `${word} donations`]) {
      const res = await list(`q=${encodeURIComponent(q)}`);
      assert.deepEqual(
        res.body.results.map((n: { ein: string }) => n.ein),
        [listed[1].ein],
        q,
      );
    }
    assert.deepEqual((await list('q=%25%25%25')).body.results, [], 'a % is a character, not a wildcard');
  });

  test("another account sees the nonprofits without this account's Connect", async () => {
    const res = await list(`q=${word}`, otherTok);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.results.length, 3);
    assert.ok(res.body.results.every((n: { connect: unknown }) => n.connect === null));
    assert.deepEqual((await list(`q=${cid}`, otherTok)).body.results, []);
  });

  test('paged by the service: pageLimit and pageToken; a token belongs to its search', async () => {
    const first = await list(`q=${word}&pageLimit=2`);
    assert.equal(first.body.results.length, 2);
    assert.ok(first.body.nextPageToken);
    const second = await list(`q=${word}&pageLimit=2&pageToken=${encodeURIComponent(first.body.nextPageToken)}`);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(
      second.body.results.map((n: { ein: string }) => n.ein),
      [listed[0].ein],
    );
    assert.equal(second.body.nextPageToken, undefined);
    assertProblem(await list(`q=other&pageToken=${encodeURIComponent(first.body.nextPageToken)}`), 400, /another list/);
    assertProblem(await list('pageLimit=0'), 400, /pageLimit/);
    assertProblem(await list(`q=${'x'.repeat(101)}`), 400, /q must be at most 100/);
  });

  test('no token → 401', async () => {
    assertProblem(await call(app, 'GET', '/v1/nonprofits'), 401);
  });
});

describe('GET /v1/nonprofit/{ein}', () => {
  const bad = ['12345678', '1234567890', 'abcdefghi', '12-345678', '12345678%20'];
  for (const ein of bad) {
    test(`"${ein}" → 400`, async () => {
      assertProblem(await call(app, 'GET', `/v1/nonprofit/${ein}`, { token: tok }), 400, /9 digits/);
    });
  }

  test('an EIN nobody registered → 404 (9 digits are enough to ask)', async () => {
    assertProblem(await call(app, 'GET', `/v1/nonprofit/${newEin()}`, { token: tok }), 404, /No nonprofit/);
    assertProblem(await call(app, 'GET', '/v1/nonprofit/000000000', { token: tok }), 404);
  });

  test('nonprofits are one shared registry: another account sees them', async () => {
    const np = await createNonprofit();
    const res = await call(app, 'GET', `/v1/nonprofit/${np.ein}`, { token: otherTok });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, np);
  });

  test('no token → 401; wrong method → 405', async () => {
    assertProblem(await call(app, 'GET', '/v1/nonprofit/123456789'), 401);
    const res = await call(app, 'DELETE', '/v1/nonprofit/123456789', { token: tok });
    assertProblem(res, 405);
    assert.match(res.headers.get('allow') ?? '', /GET/);
  });
});

describe('Connects', () => {
  const CID = /^test_[0-9A-Za-z]{27}$/;

  test('create: 201, Location, the Connect without its key; get: the key', async () => {
    const np = await createNonprofit({ name: 'Riverside Food Bank' });
    const res = await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: tok });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, CID);
    assert.equal(res.headers.get('location'), `/v1/connects/${res.body.id}`);
    assert.deepEqual(Object.keys(res.body).sort(), ['active', 'createdAt', 'id', 'metadata', 'name', 'nonprofitId', 'updatedAt']);
    assert.equal(res.body.nonprofitId, np.id);
    assert.equal(res.body.name, 'Riverside Food Bank');
    assert.equal(res.body.active, true);
    assert.deepEqual(res.body.metadata, {});
    assert.match(res.body.createdAt, ISO_MS);
    assert.doesNotMatch(res.text, /sk_test_/);

    const got = await call(app, 'GET', `/v1/connects/${res.body.id}`, { token: tok });
    assert.equal(got.status, 200, got.text);
    assert.match(got.body.apiKey, /^sk_test_[0-9A-Za-z]{32}$/);
    const { apiKey: _apiKey, ...rest } = got.body;
    assert.deepEqual(rest, res.body);
  });

  test('one Connect per nonprofit per account: a repeat (with {}) returns the existing one, unchanged', async () => {
    const np = await createNonprofit();
    const first = await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: tok, body: { name: 'Spring drive', metadata: { campaign: 'spring' } } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.name, 'Spring drive');
    assert.deepEqual(first.body.metadata, { campaign: 'spring' });
    for (const body of [{}, undefined, { name: 'Another name' }]) {
      const again = await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: tok, body });
      assert.equal(again.status, 201, again.text);
      assert.equal(again.headers.get('location'), `/v1/connects/${first.body.id}`);
      assert.deepEqual(again.body, first.body);
    }
    const key1 = (await call(app, 'GET', `/v1/connects/${first.body.id}`, { token: tok })).body.apiKey;
    // Another account gets its own Connect (and key) for the same nonprofit.
    const theirs = await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: otherTok });
    assert.equal(theirs.status, 201, theirs.text);
    assert.notEqual(theirs.body.id, first.body.id);
    const key2 = (await call(app, 'GET', `/v1/connects/${theirs.body.id}`, { token: otherTok })).body.apiKey;
    assert.notEqual(key1, key2);
  });

  test('10 concurrent creates for one nonprofit make one Connect', async () => {
    const np = await createNonprofit();
    const results = await Promise.all(Array.from({ length: 10 }, () => call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: tok })));
    for (const r of results) assert.equal(r.status, 201, r.text);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
  });

  const createErrors: [string, () => Promise<{ query: string; opts?: Parameters<typeof call>[3] }>, number, RegExp][] = [
    ['nonprofit missing', async () => ({ query: '' }), 400, /nonprofit query parameter is required/],
    ['nonprofit empty', async () => ({ query: '?nonprofit=' }), 400, /required/],
    ['nonprofit not a UUID', async () => ({ query: '?nonprofit=123456789' }), 400, /UUID/],
    ['no such nonprofit', async () => ({ query: '?nonprofit=6f1c2d9e-8a4b-4c3d-9e2f-1a2b3c4d5e6f' }), 404, /No nonprofit/],
    ['unknown body field', async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { body: { color: 'red' } } }), 400, /unknown field/],
    ['empty name', async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { body: { name: '' } } }), 400, /name/],
    ['metadata with a number', async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { body: { metadata: { n: 1 } } } }), 400, /metadata/],
    ['metadata an array', async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { body: { metadata: ['a'] } } }), 400, /metadata/],
    [
      'malformed JSON',
      async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { raw: '{"name":', headers: { 'content-type': 'application/json' } } }),
      400,
      /not valid JSON/,
    ],
    [
      'a text/plain body',
      async () => ({ query: `?nonprofit=${(await createNonprofit()).id}`, opts: { raw: 'name=x', headers: { 'content-type': 'text/plain' } } }),
      415,
      /JSON/,
    ],
    [
      'a body over 256 KiB',
      async () => ({
        query: `?nonprofit=${(await createNonprofit()).id}`,
        opts: { raw: JSON.stringify({ name: 'x', metadata: { a: 'y'.repeat(300 * 1024) } }), headers: { 'content-type': 'application/json' } },
      }),
      413,
      /limit/,
    ],
  ];
  for (const [name, setup, status, detail] of createErrors) {
    test(`create: ${name} → ${status}, no Connect made`, async () => {
      const { query, opts } = await setup();
      assertProblem(await call(app, 'POST', `/v1/connects${query}`, { token: tok, ...opts }), status, detail);
      const nonprofit = new URLSearchParams(query).get('nonprofit');
      if (nonprofit && status !== 404 && !/UUID|required/.test(String(detail))) {
        // A later valid create is the first one: it takes the default name, not the refused one.
        const np = await call(app, 'POST', `/v1/connects?nonprofit=${nonprofit}`, { token: tok });
        assert.equal(np.status, 201);
        assert.deepEqual(np.body.metadata, {});
        assert.match(np.body.name, /^Nonprofit /);
      }
    });
  }

  test('get: unknown id → 404; another account → 404; no token → 401', async () => {
    const np = await createNonprofit();
    const mine = await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`, { token: tok });
    assertProblem(await call(app, 'GET', '/v1/connects/test_2Qx9ZbYvV9d4bR5sZQH6oYx7Jc1', { token: tok }), 404);
    assertProblem(await call(app, 'GET', '/v1/connects/not-even-a-cid', { token: tok }), 404);
    const foreign = await call(app, 'GET', `/v1/connects/${mine.body.id}`, { token: otherTok });
    assertProblem(foreign, 404);
    assert.doesNotMatch(foreign.text, /sk_test_/);
    assertProblem(await call(app, 'GET', `/v1/connects/${mine.body.id}`), 401);
    assertProblem(await call(app, 'POST', `/v1/connects?nonprofit=${np.id}`), 401);
  });

  test('wrong methods → 405 with Allow', async () => {
    const list = await call(app, 'GET', '/v1/connects', { token: tok });
    assertProblem(list, 405);
    assert.equal(list.headers.get('allow'), 'POST, OPTIONS');
    const del = await call(app, 'DELETE', '/v1/connects/test_2Qx9ZbYvV9d4bR5sZQH6oYx7Jc1', { token: tok });
    assertProblem(del, 405);
    assert.match(del.headers.get('allow') ?? '', /GET/);
  });
});
