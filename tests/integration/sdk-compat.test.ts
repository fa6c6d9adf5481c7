import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { assertProblem, call, token } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the public SDK sees the same API on
// any store).
// Issue 12: the API as the public Chariot SDK drives it, and as /openapi.json describes it —
// the served document and its reference page, a grant's workflowSessionId (API and Connect page),
// GET /v1/grants/{id} by token alone (a1, with grants.test.ts) and the funds list. Migration 0007 on
// a database the previous release made: tests/upgrade/sdk-compat.ts.

let app: TSharedApp;
let tok: string;
let otherTok: string;
let connect: { id: string; apiKey: string };
let seq = Math.floor(Math.random() * 9_000_000);
const newEin = () => `46${String(seq++ % 10_000_000).padStart(7, '0')}`;

before(async () => {
  app = await sharedApp({ accounts: ['other'] });
  [tok, otherTok] = await Promise.all([token(app), token(app, app.clients.other)]);
  const np = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: newEin(), user: { email: 'ed@example.org' } } });
  const created = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  connect = (await call(app, 'GET', `/v1/connects/${created.body.id}`, { token: tok })).body;
});
after(() => app?.stop());

const WFS = /^wfs_[0-9A-Za-z]{27}$/;
const grantBody = (extra: Record<string, unknown> = {}) => ({
  amount: 2500,
  fundId: 'schwab-charitable',
  firstName: 'Ida',
  lastName: 'Wells',
  email: 'ida@example.org',
  ...extra,
});
const postGrant = (body: unknown, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/v1/grants', { token: tok, body, headers: { 'x-service-api-key': connect.apiKey, ...headers } });

describe('the document and its reference page', () => {
  test('GET /openapi.json is an OpenAPI 3.1 document for this deployment that passes the lint', async () => {
    const res = await call(app, 'GET', '/openapi.json');
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.body.openapi, '3.1.0');
    assert.deepEqual(res.body.servers, [{ url: app.baseUrl }]);
    assert.equal(res.body.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl, `${app.baseUrl}/oauth/token`);
    const lint = await new Validator().validate(res.body);
    assert.equal(lint.valid, true, JSON.stringify(lint.errors));
  });

  test('/reference serves the bundled reference page, reading /openapi.json from this app only', async () => {
    const page = await call(app, 'GET', '/reference');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.text, /<script src="\/reference\/scalar\.js"><\/script>/);
    assert.match(page.text, /"url":"\/openapi\.json"/);
    assert.doesNotMatch(page.text, /https?:\/\//, 'no outside address in the page');
    const script = await fetch(`${app.baseUrl}/reference/scalar.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000, 'the bundle itself');
  });
});

describe('a2: every grant names its workflow session', () => {
  test('API-created grants get a session of their own; a replay keeps it; the event and GET carry it', async () => {
    const [a, b] = await Promise.all([postGrant(grantBody()), postGrant(grantBody())]);
    assert.equal(a.status, 201, a.text);
    assert.match(a.body.workflowSessionId, WFS);
    assert.match(b.body.workflowSessionId, WFS);
    assert.notEqual(a.body.workflowSessionId, b.body.workflowSessionId, 'one session per API call');

    const key = { 'idempotency-key': `wfs-${Math.random()}` };
    const first = await postGrant(grantBody({ note: 'once' }), key);
    const replay = await postGrant(grantBody({ note: 'once' }), key);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.workflowSessionId, first.body.workflowSessionId);

    const got = await call(app, 'GET', `/v1/grants/${a.body.id}`, { token: tok });
    assert.equal(got.body.workflowSessionId, a.body.workflowSessionId);
    const listed = await call(app, 'GET', `/v1/messages?tag=grant:${a.body.id}`, { token: tok });
    const message = await call(app, 'GET', `/v1/messages/${listed.body.results[0].id}`, { token: tok });
    assert.equal(message.body.payload.data.workflowSessionId, a.body.workflowSessionId, 'the grant.succeeded event carries it');
  });

  test('a grant from the Connect page names the donor’s visit: the form it came from', async () => {
    const page = await call(app, 'GET', `/connect/${connect.id}`);
    const formToken = /name="formToken" value="([0-9A-Za-z]+)"/.exec(page.text)?.[1];
    assert.ok(formToken, 'the form carries its token');
    const fields = new URLSearchParams({
      fundId: 'vanguard-charitable',
      amount: '75',
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada@example.org',
      formToken,
    });
    const give = () =>
      call(app, 'POST', `/connect/${connect.id}/give`, { raw: fields.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const res = await give();
    assert.equal(res.status, 303, res.text);
    assert.equal((await give()).headers.get('location'), res.headers.get('location'), 'a double submit is the same grant');
    const trackingId = new URL(res.headers.get('location')!, app.baseUrl).searchParams.get('t');
    const grants = await call(app, 'GET', '/v1/grants?pageLimit=100', { token: tok, headers: { 'x-service-api-key': connect.apiKey } });
    const grant = grants.body.results.find((g: { trackingId: string }) => g.trackingId === trackingId);
    assert.equal(grant.workflowSessionId, `wfs_${formToken}`);

    const again = /name="formToken" value="([0-9A-Za-z]+)"/.exec((await call(app, 'GET', `/connect/${connect.id}`)).text)?.[1];
    assert.notEqual(again, formToken, 'another visit is another session');
  });
});

describe('a1: GET /v1/grants/{id} as the SDK calls it', () => {
  test('the bearer token alone answers the grant of its account; another account gets 404', async () => {
    const mine = await postGrant(grantBody());
    const res = await call(app, 'GET', `/v1/grants/${mine.body.id}`, { token: tok });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, mine.body);
    assertProblem(await call(app, 'GET', `/v1/grants/${mine.body.id}`, { token: otherTok }), 404);
  });
});

describe('EXT GET /v1/funds', () => {
  test('lists every fund a grant may name, paged like every list', async () => {
    const all = await call(app, 'GET', '/v1/funds', { token: otherTok });
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.nextPageToken, undefined, 'one page holds them all by default');
    assert.ok(all.body.results.length >= 5);
    const paged: { id: string; name: string }[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const res = await call(app, 'GET', `/v1/funds?pageLimit=2${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`, { token: tok });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.results.length <= 2);
      paged.push(...res.body.results);
      pageToken = res.body.nextPageToken ?? '';
      pages++;
    } while (pageToken && pages < 10);
    assert.deepEqual(paged, all.body.results, 'the pages add up to the list');
    assert.equal(pages, Math.ceil(all.body.results.length / 2));
    const last = all.body.results.at(-1);
    const grant = await postGrant(grantBody({ fundId: last.id }));
    assert.equal(grant.status, 201, grant.text);
    assert.equal(grant.body.fundName, last.name);
  });

  test('a bad pageLimit or a foreign or forged pageToken → 400; no token → 401', async () => {
    assertProblem(await call(app, 'GET', '/v1/funds?pageLimit=0', { token: tok }), 400, /pageLimit/);
    const webhooks = await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: tok });
    assert.equal(webhooks.status, 200);
    const grants = await call(app, 'GET', '/v1/grants?pageLimit=1', { token: tok, headers: { 'x-service-api-key': connect.apiKey } });
    assertProblem(await call(app, 'GET', `/v1/funds?pageToken=${encodeURIComponent(grants.body.nextPageToken)}`, { token: tok }), 400, /another list/);
    assertProblem(await call(app, 'GET', '/v1/funds?pageToken=forged.AAAAAAAAAAAAAAAAAAAAAA', { token: tok }), 400, /pageToken/);
    assertProblem(await call(app, 'GET', '/v1/funds'), 401);
  });
});
