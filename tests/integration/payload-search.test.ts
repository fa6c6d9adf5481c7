// Own app: not yet on the shared app (its searches read every receipt and message of the app); its older release is tests/upgrade/payload-search.ts.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startApp, type TApp } from '../helpers/app';
import { screenshotPages } from '../helpers/screenshots';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';

// Search inside payloads (issue 27, item 4), against the built app: a grant delivered by the service
// to a console receiver (its payload in service.messages, its body in console.receipts), and a request
// only the receiver got. Each query form — path=value (numbers, strings, nested keys, typed as JSON)
// and "quoted text" — on both sides of the wire; bad input (operators, paths, values, windows) → 400
// naming it; a viewer's snippets masked; the service's EXT filters themselves; an erased donor and
// purged bodies no longer found; and receipts and messages stored before migration 0019 found after
// the upgrade (the backfill), and those stored by 0019 without their words (0020's backfill). SEARCH_SCREENSHOTS=dir takes screenshots of the results page.

type THit = {
  messageId: string | null;
  grantId: string | null;
  href: string;
  matchedIn: string[];
  webhooks: { id: string }[];
  receipts: { id: number; receiverId: string }[];
  snippet: string;
};
type TResult = { kind: string; since: string; until: string; hits: THit[]; notes: string[]; partial: boolean; searchedUntil: string | null };

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const AMOUNT = 15000 + randomInt(1, 9999);
const DONOR = `ada-${randomBytes(3).toString('hex')}@example.org`;
const LONE_ID = `msg_lone${randomBytes(6).toString('hex')}`;
const LONE_BODY = JSON.stringify({
  type: 'grant.succeeded',
  data: {
    id: '0b9c3a52-1d1e-4d59-9a55-5b3a1b2c3d4e',
    fund: { id: 'only-in-a-receipt', name: 'Receipt Only Fund' },
    amount: 4242,
    email: 'grace@example.org',
    firstName: 'Grace',
    memo: 'from Grace Hopper, with thanks',
  },
});

let app: TApp;
let tok = '';
const cookies: Record<string, string> = {};
let receiver = { id: '', ingestUrl: '', slug: '' };
let webhookId = '';
let grantId = '';
let messageId = '';

const as = (who: string, method: string, url: string, body?: unknown) =>
  call(app, method, url, { headers: { cookie: cookies[who] }, ...(body === undefined ? {} : { body }) });
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(app, method, path, { token: tok, body, headers });

async function search(q: string, who = 'admin', extra = ''): Promise<TResult> {
  const res = await as(who, 'GET', `/api/search?q=${encodeURIComponent(q)}${extra}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

before(
  async () => {
    app = await startApp();
    tok = await token(app);
    cookies.admin = await staffCookie(app);
    const viewer = await as('admin', 'POST', '/api/users', { email: 'search-viewer@example.org', role: 'viewer' });
    assert.equal(viewer.status, 201, viewer.text);
    cookies.viewer = await staffCookie(app, { email: 'search-viewer@example.org', password: viewer.body.password });
    const r = await as('admin', 'POST', '/api/receivers', { name: 'Search receiver', secret: SECRET });
    assert.equal(r.status, 201, r.text);
    receiver = r.body;
    const w = await api('POST', '/v1/webhooks', { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'to the console', secret: SECRET });
    assert.equal(w.status, 201, w.text);
    webhookId = w.body.id;

    const ein = `47${String(randomInt(0, 1e7)).padStart(7, '0')}`;
    const np = await api('POST', '/v1/nonprofits', { ein, user: { email: 'director@example.org' } });
    assert.equal(np.status, 201, np.text);
    const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
    const connect = await api('GET', `/v1/connects/${created.body.id}`);
    const g = await api(
      'POST',
      '/v1/grants',
      { amount: AMOUNT, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: DONOR },
      { 'x-service-api-key': connect.body.apiKey },
    );
    assert.equal(g.status, 201, g.text);
    grantId = g.body.id;
    await eventually(
      async () => {
        const list = await api('GET', `/v1/webhooks/${webhookId}/messages?pageLimit=5`);
        messageId = list.body.results[0]?.id ?? '';
        return list.body.results[0]?.status === 'success';
      },
      30_000,
      'the grant delivered to the console receiver',
    );

    // A request only the receiver got (no message of the service has this body).
    // Signed, so it is no unresolved receipt the purge would hold.
    const at = new Date();
    const lone = await fetch(`${app.baseUrl}/ingest/${receiver.slug}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': LONE_ID,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(SECRET).sign(LONE_ID, at, LONE_BODY),
      },
      body: LONE_BODY,
    });
    assert.equal(lone.status, 200, await lone.text());
  },
  { timeout: 60_000 },
);

after(async () => {
  await app?.destroy();
});

describe('payload search', () => {
  test('path=value finds the grant in its receipt body and its message payload, as JSON, listed as its case', async () => {
    const res = await search(`data.amount=${AMOUNT}`);
    assert.equal(res.kind, 'payload-field');
    assert.equal(res.hits.length, 1, JSON.stringify(res));
    // Within the default budget (SEARCH_BUDGET_MS, 1 s) the window is searched whole: a window of
    // fewer rows than the first slice holds (2000) is one slice, whatever the machine's load.
    assert.equal(res.partial, false);
    assert.equal(res.searchedUntil, null);
    const [hit] = res.hits;
    assert.equal(hit.messageId, messageId);
    assert.equal(hit.grantId, grantId);
    assert.equal(hit.href, `/cases/${grantId}`);
    assert.deepEqual([...hit.matchedIn].sort(), ['message', 'receipt']);
    assert.deepEqual(
      hit.webhooks.map((w) => w.id),
      [webhookId],
    );
    assert.equal(hit.receipts.length, 1);
    assert.equal(hit.receipts[0].receiverId, receiver.id);
    assert.match(hit.snippet, new RegExp(`"amount": ${AMOUNT}`));
    // Compared as JSON: the string "15…" is not the number; spaces around = are fine; default window 7 days.
    assert.equal((await search(`data.amount="${AMOUNT}"`)).hits.length, 0);
    assert.equal((await search(`data.amount = ${AMOUNT}`)).hits.length, 1);
    assert.ok(Math.abs(Date.parse(res.until) - Date.parse(res.since) - 7 * 86_400_000) < 1000);
    // A bare word is a string; the other grant fields too.
    const byFund = await search('data.fundId=fidelity-charitable');
    assert.deepEqual(
      byFund.hits.map((h) => h.messageId),
      [messageId],
    );
    assert.equal((await search(`data.email="${DONOR}"`)).hits[0]?.grantId, grantId);
  });

  test('a nested path and "free text" find the request only the receiver got', async () => {
    const nested = await search('data.fund.id=only-in-a-receipt');
    assert.equal(nested.hits.length, 1, JSON.stringify(nested));
    assert.equal(nested.hits[0].messageId, LONE_ID);
    assert.deepEqual(nested.hits[0].matchedIn, ['receipt']);
    assert.match(nested.hits[0].snippet, /"id": "only-in-a-receipt"/);
    const text = await search('"grace hopper"');
    assert.equal(text.kind, 'payload-text');
    assert.deepEqual(
      text.hits.map((h) => h.messageId),
      [LONE_ID],
    );
    assert.match(text.hits[0].snippet, /Grace Hopper/);
    assert.equal((await search('"hopper grace"')).hits.length, 0, 'the words in their order');
    // Free text on the service side: a string of the grant's payload, in any case.
    const both = await search('"FIDELITY CHARITABLE"');
    assert.deepEqual(
      both.hits.map((h) => h.messageId),
      [messageId],
    );
    assert.deepEqual([...both.hits[0].matchedIn].sort(), ['message', 'receipt']);
    // A window that ends before everything finds nothing; a date alone counts its whole day.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    assert.equal((await search('"grace hopper"', 'admin', `&until=${yesterday}T00:00:00Z`)).hits.length, 0);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await search('"grace hopper"', 'admin', `&since=${today}&until=${today}`)).hits.length, 1);
  });

  test('a quoted phrase runs across a donor’s first and last name, on both sides, and across no other values', async () => {
    // The grant's firstName "Ada" and lastName "Lovelace" are two values; read as one name.
    const name = await search('"ada lovelace"');
    assert.equal(name.kind, 'payload-text');
    assert.deepEqual(
      name.hits.map((h) => h.messageId),
      [messageId],
      JSON.stringify(name),
    );
    assert.deepEqual([...name.hits[0].matchedIn].sort(), ['message', 'receipt'], 'the message payload and the receipt body');
    assert.equal((await search('"Ada Lovelace"', 'viewer')).hits.length, 1, 'any case, any role');
    assert.equal((await search('"lovelace ada"')).hits.length, 0, 'the name in its order');
    // The service's own filter says the same (EXT payloadText).
    const since = new Date(Date.now() - 86_400_000).toISOString();
    const listed = await api('GET', `/v1/messages?payloadText=${encodeURIComponent('ada lovelace')}&after=${since}`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.results.map((m: { id: string }) => m.id),
      [messageId],
    );
    // Other values stay apart: fund.name "Receipt Only Fund" is followed by memo "from Grace Hopper…".
    assert.equal((await search('"receipt only fund"')).hits.length, 1);
    assert.equal((await search('"only fund from"')).hits.length, 0, 'no phrase across two unrelated values');
    assert.equal((await search('"lovelace fidelity"')).hits.length, 0);
  });

  test('bad input is a 400 naming what is wrong', async () => {
    const bad = async (q: string, pattern: RegExp, extra = '') => {
      const res = await as('admin', 'GET', `/api/search?q=${encodeURIComponent(q)}${extra}`);
      assertProblem(res, 400, pattern);
      return res;
    };
    await bad('data.amount>5', /operator ">" is not supported/);
    await bad('data.amount~5', /operator "~" is not supported/);
    await bad('data.amount!=5', /operator "!=" is not supported/);
    await bad('data..amount=5', /path "data\.\.amount" is malformed/);
    await bad('data.items[0].id=5', /array indexes are not supported/);
    await bad('data.amount=', /value is missing/);
    await bad('data.name="Ada', /value "Ada is malformed/);
    await bad('"grace', /no closing quote/);
    await bad('"  "', /must contain a letter or a digit/);
    const wide = await bad('data.amount=5', /at most 31 days \(it is 32 days\)/, `&since=2026-01-01T00:00:00Z&until=2026-02-02T00:00:00Z`);
    assert.equal(wide.body.errors[0].path, 'since');
    const odd = await bad('"grace hopper"', /until must be a date/, '&until=yesterday');
    assert.equal(odd.body.errors[0].path, 'until');
    await bad('"grace hopper"', /since must be before until/, '&since=2026-02-02&until=2026-02-01');
    // What worked before still does: an id is a case, not a payload search.
    const byMessage = await as('admin', 'GET', `/api/search?q=${messageId}`);
    assert.equal(byMessage.status, 200);
    assert.equal(byMessage.body.kind, 'message-id');
    assert.equal(byMessage.body.messages[0].id, messageId);
  });

  test('a viewer gets the same hits with donor details masked in the snippets', async () => {
    const admin = await search('"grace hopper"');
    assert.match(admin.hits[0].snippet, /grace@example\.org/);
    const viewer = await search('"grace hopper"', 'viewer');
    assert.deepEqual(
      viewer.hits.map((h) => h.messageId),
      admin.hits.map((h) => h.messageId),
    );
    assert.doesNotMatch(viewer.hits[0].snippet, /grace@example\.org/);
    assert.match(viewer.hits[0].snippet, /g•••@example\.org/);
    assert.doesNotMatch(viewer.hits[0].snippet, /"firstName": "Gr/, 'a donor field is masked or left out, never cut half way');
    const page = await call(app, 'GET', `/cases/${encodeURIComponent('"grace hopper"')}`, { headers: { cookie: cookies.viewer } });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-testid="payload-hit"/);
    assert.doesNotMatch(page.text, /grace@example\.org/);
    // SEARCH_SCREENSHOTS=dir: the results page at 1280 and 390 px (both hits: the grant, the lone request).
    if (process.env.SEARCH_SCREENSHOTS)
      await screenshotPages(app, cookies.admin, process.env.SEARCH_SCREENSHOTS, [`/cases/${encodeURIComponent('type=grant.succeeded')}`]);
  });

  test('the service searches its payloads through EXT filters on GET /v1/messages', async () => {
    const after = new Date(Date.now() - 3_600_000).toISOString();
    const byValue = await api('GET', `/v1/messages?payloadPath=data.amount&payloadEquals=${AMOUNT}&after=${after}`);
    assert.equal(byValue.status, 200, byValue.text);
    assert.deepEqual(
      byValue.body.results.map((m: { id: string }) => m.id),
      [messageId],
    );
    assert.match(byValue.body.results[0].excerpt, new RegExp(`"amount": ${AMOUNT}`));
    assert.equal(byValue.body.partial, undefined, 'searched whole within the default budget');
    assert.equal(byValue.body.searchedUntil, undefined);
    assert.equal(byValue.body.results[0].webhookIds, undefined);
    // withWebhooks=true: the webhooks each message was queued for, listed with it (what the console's search reads).
    const withWebhooks = await api('GET', `/v1/messages?payloadPath=data.amount&payloadEquals=${AMOUNT}&after=${after}&withWebhooks=true`);
    assert.deepEqual(
      withWebhooks.body.results.map((m: { webhookIds: string[] }) => m.webhookIds),
      [[webhookId]],
    );
    assertProblem(await api('GET', '/v1/messages?withWebhooks=yes'), 400, /withWebhooks: must be true or false/);
    const byText = await api('GET', `/v1/messages?payloadText=${encodeURIComponent('ada lovelace')}&after=${after}`);
    assert.equal(byText.status, 200, byText.text);
    assertProblem(await api('GET', `/v1/messages?payloadPath=data.amount&payloadEquals=${AMOUNT}`), 400, /after: is required with a payload filter/);
    assertProblem(
      await api('GET', '/v1/messages?payloadPath=data.amount&payloadEquals=15000&after=2026-01-01T00:00:00Z&before=2026-02-02T00:00:00Z'),
      400,
      /at most 31 days/,
    );
    assertProblem(await api('GET', `/v1/messages?payloadPath=data.amount&after=${after}`), 400, /payloadEquals: payloadPath and payloadEquals go together/);
    assertProblem(await api('GET', `/v1/messages?payloadPath=data.amount&payloadEquals=abc&after=${after}`), 400, /payloadEquals: must be a JSON value/);
  });

  test('an erased donor is no longer found on either side', async () => {
    const done = await as('admin', 'POST', '/api/erasures', { email: DONOR });
    assert.equal(done.status, 200, done.text);
    assert.equal((await search(`data.amount=${AMOUNT}`)).hits.length, 0);
    assert.equal((await search('"lovelace"')).hits.length, 0);
    const after = new Date(Date.now() - 3_600_000).toISOString();
    const byText = await api('GET', `/v1/messages?payloadText=lovelace&after=${after}`);
    assert.deepEqual(byText.body.results, [], 'the payload copy went with the payload');
  });

  test('purged receipt bodies are no longer found', async () => {
    assert.equal((await search('data.fund.id=only-in-a-receipt')).hits.length, 1);
    const keep = await as('admin', 'PATCH', '/api/retention', { RECEIPT_BODY_RETENTION: '1s' });
    assert.equal(keep.status, 200, keep.text);
    await eventually(async () => (await search('data.fund.id=only-in-a-receipt')).hits.length === 0, 30_000, 'the purge of the body');
    assert.equal((await search('"grace hopper"')).hits.length, 0);
  });
});
