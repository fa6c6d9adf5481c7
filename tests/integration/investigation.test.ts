// Own app: the sandbox's own grants and webhooks, counted exactly on the console's views (a shared app's sandbox has other files' webhooks).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { freePort, startApp } from '../helpers/app';
import { assertProblem, call, eventually, staffCookie, token, type TResponse } from '../helpers/http';

// @ci-one-store: CI runs this file in the embedded-store pass only (the case and search reads are plain
// queries, the same on any store).
// "It never arrived", investigated from the console's side, against the real built app over HTTP.
// One account, one grant, three webhooks that each go wrong (or right) in their own way:
//   W1 → console receiver R1, which holds the webhook's secret S     → delivered and received
//   W2 → console receiver R2, which holds another secret             → received, bad signature
//   W3 → a loopback port nothing listens on                          → network error, 8 attempts
// Every webhook of an account gets the same message id, so a receipt belongs to a (message, webhook)
// pair only when it also arrived at the receiver that webhook's URL points to: W3's timeline must
// not show R1's and R2's arrivals (it used to). Then the case (/api/search) for every kind of term,
// the problems view (/api/problems), and a webhook made after the grant (W4: not sent).

type TStarted = Awaited<ReturnType<typeof startApp>>;
type TReceiverJson = { id: string; name: string; slug: string; ingestUrl: string };
type TReceipt = { id: number; receiverId: string; verdict: string; duplicate: boolean; responseStatus: number };
type TDelivery = {
  webhook: { id: string };
  receiver: { id: string } | null;
  status: string | null;
  attemptCount: number;
  attempts: { url: string; responseStatusCode: number }[];
  receipts: TReceipt[];
  reconciliation: string;
  explanation: string;
};
type TCase = {
  query: string;
  kind: string;
  redirect?: string;
  grants: { id: string; trackingId: string; amount: number; status: string; email: string }[];
  messages: { id: string; eventId: string | null; grantId: string | null; deliveries: TDelivery[]; otherReceipts: TReceipt[] }[];
  notes: string[];
};
type TProblems = {
  since: string;
  until: string;
  groups: {
    webhook: { id: string };
    receiver: { id: string } | null;
    counts: { key: string; label: string; count: number; capped: boolean }[];
    total: number;
    truncated: boolean;
  }[];
  items: { webhookId: string; id: string; reconciliation: string; explanation: string; status: string }[];
  nextPageToken: string | null;
  notes: string[];
};

let app: TStarted;
let tok: string;
let cookie: string;
const S = newSecret();
const OTHER = newSecret();
/** clock() of explain-delivery: "12:04:05", or "Nov 22 12:04:05" on another UTC day than now. */
const CLOCK = String.raw`(?:[A-Z][a-z]{2} \d{1,2} )?\d\d:\d\d:\d\d`;
const fp = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

let R1: TReceiverJson;
let R2: TReceiverJson;
let R3: TReceiverJson;
const W: Record<'W1' | 'W2' | 'W3', string> = { W1: '', W2: '', W3: '' };
let deadPort = 0;
let grant: { id: string; trackingId: string; email: string };
let messageId = '';
let eventId = '';
let grantCreatedAt = 0;

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(app, method, path, { token: tok, body, headers });

async function createReceiver(name: string, secret: string): Promise<TReceiverJson> {
  const res = await staff('POST', '/api/receivers', { name, secret });
  assert.equal(res.status, 201, res.text);
  assert.match(res.body.ingestUrl, /\/ingest\//);
  return res.body;
}

async function createWebhook(url: string, description: string): Promise<string> {
  const res = await api('POST', '/v1/webhooks', { url, eventTypes: ['grant.succeeded'], description, secret: S });
  assert.equal(res.status, 201, res.text);
  assert.match(res.body.id, /^ep_/);
  return res.body.id;
}

type TMessageItem = { id: string; status: string; attemptCount: number; eventId?: string };
async function messagesOf(webhookId: string): Promise<TMessageItem[]> {
  const res = await api('GET', `/v1/webhooks/${webhookId}/messages?pageLimit=10`);
  assert.equal(res.status, 200, res.text);
  return res.body.results;
}

before(
  async () => {
    app = await startApp();
    tok = await token(app);
    cookie = await staffCookie(app);

    R1 = await createReceiver('R1 holds the secret', S);
    R2 = await createReceiver('R2 holds another secret', OTHER);
    R3 = await createReceiver('R3 for a late webhook', S);
    deadPort = await freePort(); // bound, then closed: nothing listens there
    W.W1 = await createWebhook(R1.ingestUrl, 'W1 right secret');
    W.W2 = await createWebhook(R2.ingestUrl, 'W2 wrong secret');
    W.W3 = await createWebhook(`http://127.0.0.1:${deadPort}/hook`, 'W3 dead port');

    const ein = `46${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const np = await api('POST', '/v1/nonprofits', { ein, user: { email: 'director@example.org' } });
    assert.equal(np.status, 201, np.text);
    const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
    assert.equal(created.status, 201, created.text);
    const connect = await api('GET', `/v1/connects/${created.body.id}`);
    assert.match(connect.body.apiKey, /^sk_test_/);
    const email = `donor-${randomBytes(4).toString('hex')}@example.org`;
    const g = await api(
      'POST',
      '/v1/grants',
      { amount: 15000, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email },
      { 'x-service-api-key': connect.body.apiKey },
    );
    assert.equal(g.status, 201, g.text);
    grant = g.body;
    grantCreatedAt = Date.parse(g.body.createdAt);
    assert.match(grant.trackingId, /^GC-[0-9A-Z]{6}$/);

    // One message, the same id on every webhook; W3's 8 attempts take ~7 s (retries 1 s × 7, ±20 %).
    await eventually(
      async () => {
        const [m1, m2, m3] = await Promise.all([messagesOf(W.W1), messagesOf(W.W2), messagesOf(W.W3)]);
        if (m1.length !== 1 || m2.length !== 1 || m3.length !== 1) return false;
        messageId = m1[0].id;
        eventId = m1[0].eventId ?? '';
        assert.equal(m2[0].id, messageId, 'every webhook of the account gets the same message id');
        assert.equal(m3[0].id, messageId, 'every webhook of the account gets the same message id');
        return m1[0].status === 'success' && m2[0].status === 'success' && m3[0].status === 'failed';
      },
      45_000,
      'W1 and W2 success, W3 failed after its retries',
    );
    assert.match(messageId, /^msg_[0-9A-Za-z]{27}$/);
    assert.match(eventId, /^evt_[0-9A-Za-z]{27}$/, 'the message list carries the event id (EXT)');
  },
  { timeout: 120_000 },
);

after(async () => {
  await app?.stop();
});

async function timelineRow(webhookId: string) {
  const res = await staff('GET', `/api/webhooks/${webhookId}/timeline`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.webhook?.id, webhookId);
  const rows = res.body.messages as { id: string; status: string; attemptCount: number; receipts: TReceipt[]; reconciliation: string; explanation: string }[];
  assert.deepEqual(
    rows.map((m) => m.id),
    [messageId],
    `${webhookId}'s timeline has the one message`,
  );
  return { timeline: res.body, row: rows[0] };
}

describe('timelines: each webhook shows only its own receiver’s receipts', () => {
  test('W1 (R1 holds the secret): one valid receipt at R1, delivered and received', async () => {
    const { timeline, row } = await timelineRow(W.W1);
    assert.equal(timeline.receiver?.id, R1.id);
    assert.equal(row.status, 'success');
    assert.equal(row.receipts.length, 1, JSON.stringify(row.receipts));
    assert.equal(row.receipts[0].receiverId, R1.id);
    assert.equal(row.receipts[0].verdict, 'valid');
    assert.equal(row.receipts[0].responseStatus, 200);
    assert.equal(row.reconciliation, 'delivered-and-received');
    assert.match(row.explanation, new RegExp(`^delivered: arrived ${CLOCK} at receiver “${R1.name}”, signature valid, answered 200$`));
    assert.match(row.explanation, /signature valid, answered 200/);
    assert.ok(row.explanation.includes(R1.name), row.explanation);
  });

  test('W2 (R2 holds another secret): received, bad signature, both fingerprints explained', async () => {
    const { timeline, row } = await timelineRow(W.W2);
    assert.equal(timeline.receiver?.id, R2.id);
    assert.equal(row.receipts.length, 1, JSON.stringify(row.receipts));
    assert.equal(row.receipts[0].receiverId, R2.id);
    assert.equal(row.receipts[0].verdict, 'invalid signature');
    assert.equal(row.reconciliation, 'received-bad-signature');
    assert.match(row.explanation, /different secret/);
    assert.ok(row.explanation.includes(`fingerprints ${fp(S)}… vs ${fp(OTHER)}…`), `${row.explanation} names ${fp(S)} (webhook) and ${fp(OTHER)} (R2)`);
  });

  test('W3 (dead port): network error, 8 attempts, no receipts (not R1’s or R2’s)', async () => {
    const { timeline, row } = await timelineRow(W.W3);
    assert.equal(timeline.receiver, null, 'a loopback URL that is no receiver of this console');
    assert.equal(row.status, 'failed');
    assert.equal(row.attemptCount, 8);
    assert.deepEqual(row.receipts, [], 'the receipts of R1 and R2 carry the same message id but are not W3’s');
    assert.equal(row.reconciliation, 'network-error');
    assert.match(row.explanation, /^sent 8 times; never reached the receiver: no response/);
    assert.match(row.explanation, /no retries left$/);
  });
});

/** The expectations every search for the grant shares: the grant, one message, three deliveries. */
function assertTheCase(c: TCase, q: string, kind: string) {
  assert.equal(c.kind, kind, `the kind of ${q}`);
  assert.equal(c.redirect, undefined);
  assert.equal(c.grants.length, 1, `one grant for ${q}: ${JSON.stringify(c.grants)}`);
  assert.equal(c.grants[0].id, grant.id);
  assert.equal(c.grants[0].trackingId, grant.trackingId);
  assert.equal(c.grants[0].amount, 15000);
  assert.equal(c.messages.length, 1, `one message for ${q}: ${JSON.stringify(c.messages.map((m) => m.id))} notes: ${c.notes.join(' | ')}`);
  const [m] = c.messages;
  assert.equal(m.id, messageId);
  assert.equal(m.eventId, eventId);
  assert.equal(m.grantId, grant.id);
  assert.deepEqual(m.otherReceipts, [], 'both arrivals are explained by the webhook whose receiver they reached');
  const by = new Map(m.deliveries.map((d) => [d.webhook.id, d]));
  assert.deepEqual([...by.keys()].sort(), [W.W1, W.W2, W.W3].sort(), 'one delivery per webhook of the account');

  const d1 = by.get(W.W1)!;
  assert.equal(d1.status, 'success');
  assert.equal(d1.receiver?.id, R1.id);
  assert.deepEqual(
    d1.receipts.map((r) => [r.receiverId, r.verdict]),
    [[R1.id, 'valid']],
  );
  assert.equal(d1.reconciliation, 'delivered-and-received');
  assert.match(d1.explanation, /^delivered: .*signature valid, answered 200$/);

  const d2 = by.get(W.W2)!;
  assert.equal(d2.status, 'success');
  assert.equal(d2.receiver?.id, R2.id);
  assert.deepEqual(
    d2.receipts.map((r) => [r.receiverId, r.verdict]),
    [[R2.id, 'invalid signature']],
  );
  assert.equal(d2.reconciliation, 'received-bad-signature');
  assert.match(d2.explanation, /different secret/);
  assert.ok(d2.explanation.includes(`fingerprints ${fp(S)}… vs ${fp(OTHER)}…`), d2.explanation);

  const d3 = by.get(W.W3)!;
  assert.equal(d3.status, 'failed');
  assert.equal(d3.receiver, null);
  assert.equal(d3.attemptCount, 8);
  assert.equal(d3.attempts.length, 8);
  assert.ok(
    d3.attempts.every((a) => a.responseStatusCode === 0 && a.url === `http://127.0.0.1:${deadPort}/hook`),
    JSON.stringify(d3.attempts),
  );
  assert.deepEqual(d3.receipts, []);
  assert.equal(d3.reconciliation, 'network-error');
  // The case reads the newest attempt's error: "no response (connect ECONNREFUSED …)".
  assert.match(d3.explanation, /^sent 8 times; never reached the receiver: no response \(.+\); no retries left$/);
}

async function search(q: string): Promise<TCase> {
  const res = await staff('GET', `/api/search?q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200, `${q}: ${res.text}`);
  return res.body;
}

describe('search → case', () => {
  test('by tracking id', async () => {
    assertTheCase(await search(grant.trackingId), grant.trackingId, 'tracking-id');
  });

  test('by tracking id in lower case', async () => {
    const c = await search(grant.trackingId.toLowerCase());
    assert.equal(c.query, grant.trackingId);
    assertTheCase(c, grant.trackingId.toLowerCase(), 'tracking-id');
  });

  test('by grant id', async () => {
    assertTheCase(await search(grant.id), grant.id, 'grant-id');
  });

  test('by message id', async () => {
    assertTheCase(await search(messageId), messageId, 'message-id');
  });

  test('by donor e-mail', async () => {
    assertTheCase(await search(grant.email), grant.email, 'email');
  });

  test('by event id', async () => {
    assertTheCase(await search(eventId), eventId, 'event-id');
  });

  test('a webhook id gives the redirect to its timeline', async () => {
    const c = await search(W.W2);
    assert.equal(c.kind, 'webhook-id');
    assert.equal(c.redirect, `/webhooks/${W.W2}`);
  });

  test('without a staff session → 401 problem with WWW-Authenticate', async () => {
    const res = await call(app, 'GET', `/api/search?q=${encodeURIComponent(grant.trackingId)}`);
    assertProblem(res, 401);
    assert.ok(res.headers.get('www-authenticate'), 'a 401 says how to authenticate');
    const forged = await call(app, 'GET', `/api/search?q=${encodeURIComponent(grant.trackingId)}`, { headers: { cookie: 'gc_console_session=forged' } });
    assertProblem(forged, 401);
  });

  test('a bad q → 400 naming q', async () => {
    const bad: [string, string][] = [
      ['missing', '/api/search'],
      ['empty', '/api/search?q='],
      ['blank', `/api/search?q=${encodeURIComponent('   ')}`],
      ['255 characters', `/api/search?q=${'a'.repeat(255)}`],
      ['a control character', `/api/search?q=${encodeURIComponent('GC-\u0007ABCDE')}`],
      ['a newline', `/api/search?q=${encodeURIComponent(`${messageId}\n`)}x`],
      ['DEL', `/api/search?q=${encodeURIComponent('abc\u007f')}`],
    ];
    for (const [what, path] of bad) {
      const res: TResponse = await staff('GET', path);
      assertProblem(res, 400);
      assert.ok(
        (res.body.errors ?? []).some((e: { path: string }) => e.path === 'q') || /\bq\b/.test(res.body.detail),
        `${what}: the problem names q: ${res.text}`,
      );
    }
    // 254 characters is the limit, and allowed
    const longest = await staff('GET', `/api/search?q=${'a'.repeat(254)}`);
    assert.equal(longest.status, 200, longest.text);
  });
});

describe('problems', () => {
  async function problems(query = ''): Promise<TProblems> {
    const res = await staff('GET', `/api/problems${query}`);
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    return res.body;
  }

  test('W2 and W3 are grouped with counts; healthy W1 is absent; one item each', async () => {
    const p = await problems();
    const groups = new Map(p.groups.map((g) => [g.webhook.id, g]));
    assert.deepEqual([...groups.keys()].sort(), [W.W2, W.W3].sort(), JSON.stringify(p.groups));
    assert.ok(!groups.has(W.W1), 'a healthy webhook is not listed');
    const kinds = (w: string) => groups.get(w)!.counts.map((c) => [c.key, c.count, c.capped]);
    assert.deepEqual(kinds(W.W2), [['received-bad-signature', 1, false]], 'delivered as far as the service knows, failed the check here');
    assert.equal(groups.get(W.W2)!.total, 1);
    assert.equal(groups.get(W.W2)!.receiver?.id, R2.id);
    assert.deepEqual(kinds(W.W3), [['failed', 1, false]], 'the service gave up');
    assert.equal(groups.get(W.W3)!.total, 1);
    assert.equal(groups.get(W.W3)!.receiver, null);
    for (const g of p.groups) assert.equal(g.truncated, false);

    const items = new Map(p.items.map((i) => [`${i.webhookId}|${i.id}`, i]));
    assert.deepEqual([...items.keys()].sort(), [`${W.W2}|${messageId}`, `${W.W3}|${messageId}`].sort(), JSON.stringify(p.items));
    assert.equal(items.get(`${W.W2}|${messageId}`)!.reconciliation, 'received-bad-signature');
    assert.match(items.get(`${W.W2}|${messageId}`)!.explanation, new RegExp(`^arrived ${CLOCK} but the signature did not verify`));
    assert.equal(items.get(`${W.W3}|${messageId}`)!.reconciliation, 'network-error');
    assert.match(items.get(`${W.W3}|${messageId}`)!.explanation, /never reached the receiver/);
    assert.equal(p.nextPageToken, null);
    // the default window is the last 7 days, ending now
    assert.ok(Date.parse(p.until) >= grantCreatedAt && Date.parse(p.until) - Date.parse(p.since) === 7 * 24 * 3600_000, `${p.since} – ${p.until}`);
  });

  test('a bad-signature item is explained as on the timeline and in the case: different secret, both fingerprints', async () => {
    const item = (await problems()).items.find((i) => i.webhookId === W.W2 && i.id === messageId);
    assert.ok(item, 'the W2 item is listed');
    const { row } = await timelineRow(W.W2);
    assert.match(item.explanation, /different secret/);
    assert.ok(item.explanation.includes(`fingerprints ${fp(S)}… vs ${fp(OTHER)}…`), item.explanation);
    assert.equal(item.explanation, row.explanation, 'one (message, webhook), one sentence, wherever it is shown');
  });

  test('a window around the grant finds it; one that excludes it finds nothing', async () => {
    const around = await problems(`?since=${new Date(grantCreatedAt - 60_000).toISOString()}&until=${new Date(Date.now() + 60_000).toISOString()}`);
    assert.deepEqual(around.groups.map((g) => g.webhook.id).sort(), [W.W2, W.W3].sort());

    const before = await problems(
      `?since=${new Date(grantCreatedAt - 3 * 86400_000).toISOString()}&until=${new Date(grantCreatedAt - 2 * 86400_000).toISOString()}`,
    );
    assert.deepEqual(before.groups, []);
    assert.deepEqual(before.items, []);
    const later = await problems(`?since=${new Date(Date.now() + 3600_000).toISOString()}&until=${new Date(Date.now() + 2 * 3600_000).toISOString()}`);
    assert.deepEqual(later.groups, []);
    assert.deepEqual(later.items, []);
  });

  test('bad since, until, pageToken or pageLimit → 400; since ≥ until → 400; no session → 401', async () => {
    const now = new Date().toISOString();
    const bad: [string, string][] = [
      ['since', '?since=yesterday'],
      ['until', '?until=2026-13-45T99:00:00Z'],
      ['pageToken', '?pageToken=not-a-token'],
      ['pageLimit', '?pageLimit=0'],
      ['pageLimit', '?pageLimit=abc'],
      ['pageLimit', '?pageLimit=101'],
      ['since', `?since=${now}&until=${now}`],
      ['since', `?since=${new Date(Date.now() + 60_000).toISOString()}&until=${now}`],
    ];
    for (const [param, query] of bad) {
      const res = await staff('GET', `/api/problems${query}`);
      assertProblem(res, 400);
      assert.ok(
        (res.body.errors ?? []).some((e: { path: string }) => e.path.includes(param)) || res.body.detail.includes(param),
        `${query}: the problem names ${param}: ${res.text}`,
      );
    }
    assertProblem(await call(app, 'GET', '/api/problems'), 401);
  });

  test('the service side by index (EXT): failed and retrying messages across webhooks, paged, and counted up to a cap', async () => {
    const failed = await api('GET', `/v1/webhooks/messages?state=failed&pageLimit=1`);
    assert.equal(failed.status, 200, failed.text);
    assert.deepEqual(
      failed.body.results.map((m: TMessageItem & { webhookId: string }) => [m.webhookId, m.id, m.status, m.attemptCount]),
      [[W.W3, messageId, 'failed', 8]],
    );
    assert.equal(failed.body.nextPageToken, undefined, 'one failed pair in all');
    const retrying = await api('GET', '/v1/webhooks/messages?state=retrying');
    assert.equal(retrying.status, 200, retrying.text);
    assert.deepEqual(retrying.body.results, []);
    const outside = await api('GET', `/v1/webhooks/messages?state=failed&before=${new Date(grantCreatedAt - 60_000).toISOString()}`);
    assert.deepEqual(outside.body.results, [], 'before the grant: none');
    const counts = await api('GET', '/v1/webhooks/messages/counts?cap=5');
    assert.equal(counts.status, 200, counts.text);
    assert.deepEqual(counts.body, { cap: 5, results: [{ webhookId: W.W3, failed: { count: 1, capped: false }, retrying: { count: 0, capped: false } }] });
    for (const [param, query] of [
      ['state', '?state=lost'],
      ['state', ''],
      ['pageToken', '?state=failed&pageToken=forged'],
      ['after', '?state=failed&after=yesterday'],
    ]) {
      const res = await api('GET', `/v1/webhooks/messages${query}`);
      assertProblem(res, 400);
      assert.ok(res.text.includes(param), `${query}: names ${param}: ${res.text}`);
    }
    for (const cap of ['0', '10001', 'x']) assertProblem(await api('GET', `/v1/webhooks/messages/counts?cap=${cap}`), 400);

    // an export's page in one call (EXT withAttempts): every attempt, oldest first, as the attempts list has them
    const listed = await api('GET', `/v1/webhooks/${W.W3}/messages?withAttempts=true&withContent=true`);
    assert.equal(listed.status, 200, listed.text);
    const one = listed.body.results.find((m: { id: string }) => m.id === messageId);
    const attempts = await api('GET', `/v1/webhooks/${W.W3}/messages/${messageId}/attempts?pageLimit=100`);
    assert.equal(one.attempts.length, 8);
    assert.deepEqual(one.attempts, [...attempts.body.results].reverse());
    assert.equal(one.payload.type, 'grant.succeeded');
    const plain = await api('GET', `/v1/webhooks/${W.W3}/messages`);
    assert.equal('attempts' in plain.body.results[0], false, 'only when asked');
    assertProblem(await api('GET', `/v1/webhooks/${W.W3}/messages?withAttempts=yes`), 400);
  });

  test('pageLimit=1 pages through the items with nextPageToken', async () => {
    const seen: string[] = [];
    let pageToken: string | null = null;
    for (let page = 0; page < 5; page++) {
      const p: TProblems = await problems(`?pageLimit=1${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.ok(p.items.length <= 1, JSON.stringify(p.items));
      seen.push(...p.items.map((i) => `${i.webhookId}|${i.id}`));
      pageToken = p.nextPageToken;
      if (!pageToken) break;
      assert.equal(p.items.length, 1, 'a page with a next page is full');
    }
    assert.equal(pageToken, null, 'the last page has no nextPageToken');
    assert.deepEqual(seen.sort(), [`${W.W2}|${messageId}`, `${W.W3}|${messageId}`].sort(), 'every item once, none twice');
  });
});

describe('not sent', () => {
  test('a webhook created after the grant: its delivery in the case is not-sent, “created at … after this message”', async () => {
    const w4 = await createWebhook(R3.ingestUrl, 'W4 created after the grant');
    const c = await search(grant.trackingId);
    assert.equal(c.messages.length, 1);
    const by = new Map(c.messages[0].deliveries.map((d) => [d.webhook.id, d]));
    assert.deepEqual([...by.keys()].sort(), [W.W1, W.W2, W.W3, w4].sort());
    const d4 = by.get(w4)!;
    assert.equal(d4.status, null, 'the service did not queue it for W4');
    assert.equal(d4.attemptCount, 0);
    assert.deepEqual(d4.attempts, []);
    assert.deepEqual(d4.receipts, []);
    assert.equal(d4.reconciliation, 'not-sent');
    assert.match(d4.explanation, new RegExp(`^not sent: the webhook was created at ${CLOCK}, after this message \\(${CLOCK}\\)$`));
    // the others are unchanged
    assert.equal(by.get(W.W1)!.reconciliation, 'delivered-and-received');
    assert.equal(by.get(W.W2)!.reconciliation, 'received-bad-signature');
    assert.equal(by.get(W.W3)!.reconciliation, 'network-error');

    // W4's own timeline has nothing, and W4 is no problem
    const tl = await staff('GET', `/api/webhooks/${w4}/timeline`);
    assert.equal(tl.status, 200, tl.text);
    assert.deepEqual(tl.body.messages, []);
    const p = await staff('GET', '/api/problems');
    assert.ok(!p.body.groups.some((g: { webhook: { id: string } }) => g.webhook.id === w4));
  });
});

describe('pages answer bad input with a readable page, never a 500', () => {
  test('/problems with a forged pageToken or a bad date; /cases with a NUL byte', async () => {
    const forged = await staff('GET', '/problems?pageToken=not-a-token');
    assert.equal(forged.status, 200, forged.text.slice(0, 300));
    assert.match(forged.text, /pageToken is not one this console issued/);
    const badDate = await staff('GET', '/problems?since=yesterday');
    assert.equal(badDate.status, 200);
    assert.match(badDate.text, /This date range cannot be read/);
    // A NUL never reaches the page: the server's front door answers a browser with a page that names it.
    const nul = await call(app, 'GET', '/cases/%00abcd', { headers: { cookie, accept: 'text/html' } });
    assert.equal(nul.status, 400, nul.text.slice(0, 300));
    assert.match(nul.headers.get('content-type') ?? '', /text\/html/);
    assert.match(nul.text, /The path segment &#34;%00abcd&#34; contains a NUL byte/);
  });
});

describe('problems: the service’s side and the receivers’ side merged and paged', () => {
  test('three more of each: every item once across pages of two, and counts that add up', { timeout: 60_000 }, async () => {
    for (let i = 0; i < 3; i++) {
      for (const w of [W.W2, W.W3]) assert.equal((await api('POST', `/v1/webhooks/${w}/test`, { eventType: 'grant.succeeded' })).status, 200);
    }
    // W2's arrive at R2 and fail the check (answered 2xx: the service counts them delivered); W3's fail after 8 attempts.
    await eventually(
      async () => {
        const [m2, m3] = await Promise.all([messagesOf(W.W2), messagesOf(W.W3)]);
        return m2.length === 4 && m3.length === 4 && m2.every((m) => m.status === 'success') && m3.every((m) => m.status === 'failed');
      },
      45_000,
      'the test events settled',
    );
    const expected = [...(await messagesOf(W.W2)).map((m) => `${W.W2}|${m.id}`), ...(await messagesOf(W.W3)).map((m) => `${W.W3}|${m.id}`)];
    const seen: string[] = [];
    let pageToken: string | null = null;
    let first: TProblems | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await staff('GET', `/api/problems?pageLimit=2${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(res.status, 200, res.text);
      const p: TProblems = res.body;
      first ??= p;
      seen.push(...p.items.map((i) => `${i.webhookId}|${i.id}`));
      pageToken = p.nextPageToken;
      if (!pageToken) break;
      assert.equal(p.items.length, 2, 'a page with a next page is full');
    }
    assert.equal(pageToken, null);
    assert.deepEqual([...seen].sort(), [...expected].sort(), 'every (message, webhook) once, none twice');
    const counts = new Map(first!.groups.map((g) => [g.webhook.id, g.counts.map((c) => [c.key, c.count])]));
    assert.deepEqual(counts.get(W.W2), [['received-bad-signature', 4]]);
    assert.deepEqual(counts.get(W.W3), [['failed', 4]]);
    assert.deepEqual(first!.groups.map((g) => g.total).sort(), [4, 4]);
  });
});

describe('a receiver that answers 500: each failed message once, found through the sender (issue 42.4b)', () => {
  // W5 → console receiver R5, which holds the secret and answers 500: every attempt arrives and is
  // recorded answered with an error, so the receipts' side of the problems view finds the same
  // (message, webhook) pairs the sender lists as failed. Each is one item, placed by the sender's row;
  // which of the receipts' messages the sender lists is asked in one call (EXT `message=`).
  test('the sender lists only the messages asked for; the view pages through each failed pair once', { timeout: 90_000 }, async () => {
    const R5 = await createReceiver('R5 answers 500', S);
    assert.equal((await staff('PATCH', `/api/receivers/${R5.id}`, { responseStatus: 500 })).status, 200);
    const W5 = await createWebhook(R5.ingestUrl, 'W5 answered 500');
    for (let i = 0; i < 3; i++) assert.equal((await api('POST', `/v1/webhooks/${W5}/test`, { eventType: 'grant.succeeded' })).status, 200);
    const failed = await eventually(
      async () => {
        const m = await messagesOf(W5);
        return m.length === 3 && m.every((x) => x.status === 'failed') && m;
      },
      45_000,
      "W5's test events failed after their retries",
    );
    const receipts = await staff('GET', `/api/receivers/${R5.id}/receipts`);
    assert.ok(receipts.body.results.length >= 3 && receipts.body.results.every((r: TReceipt) => r.responseStatus === 500), 'R5 recorded its 500s');

    const ids = failed.map((m) => m.id);
    const only = await api('GET', `/v1/webhooks/messages?state=failed&withContent=false&message=${[ids[0], ids[1], messageId, 'msg_nothing'].join(',')}`);
    assert.equal(only.status, 200, only.text);
    assert.deepEqual(
      only.body.results.map((m: { webhookId: string; id: string }) => `${m.webhookId}|${m.id}`).sort(),
      [`${W5}|${ids[0]}`, `${W5}|${ids[1]}`, `${W.W3}|${messageId}`].sort(),
      'the failed pairs of the named messages, at any webhook, and nothing else',
    );
    assert.deepEqual((await api('GET', `/v1/webhooks/messages?state=retrying&message=${ids[0]}`)).body.results, []);
    for (const query of ['message=,', `message=${Array.from({ length: 101 }, (_, i) => `msg_${i}`).join(',')}`]) {
      const res = await api('GET', `/v1/webhooks/messages?state=failed&${query}`);
      assertProblem(res, 400);
      assert.ok(res.text.includes('message'), `${query.slice(0, 20)}: names message: ${res.text}`);
    }

    const seen: string[] = [];
    let pageToken: string | null = null;
    let first: TProblems | null = null;
    for (let page = 0; page < 20; page++) {
      const res = await staff('GET', `/api/problems?pageLimit=1${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(res.status, 200, res.text);
      first ??= res.body;
      seen.push(...(res.body as TProblems).items.filter((i) => i.webhookId === W5).map((i) => i.id));
      pageToken = res.body.nextPageToken;
      if (!pageToken) break;
    }
    assert.equal(pageToken, null);
    assert.deepEqual([...seen].sort(), [...ids].sort(), 'each failed message of W5 once');
    assert.deepEqual(
      first!.groups.find((g) => g.webhook.id === W5)?.counts.map((c) => [c.key, c.count]),
      [['failed', 3]],
    );
  });
});

describe('paused (issue 53.2)', () => {
  // Last in the file: a webhook of its own, made after every count above was read.
  test('a message waiting on a paused webhook: the case says why it is not sent, since when and by whom', async () => {
    const w5 = await createWebhook(R3.ingestUrl, 'W5 paused');
    const paused = await api('PATCH', `/v1/webhooks/${w5}`, { paused: true });
    assert.equal(paused.status, 200, paused.text);
    const sent = await api('POST', `/v1/webhooks/${w5}/test`);
    assert.equal(sent.status, 200, sent.text);
    const c = await search(sent.body.id);
    assert.equal(c.messages.length, 1);
    const d5 = c.messages[0].deliveries.find((d) => d.webhook.id === w5);
    assert.ok(d5, JSON.stringify(c.messages[0].deliveries.map((d) => d.webhook.id)));
    assert.equal(d5.status, 'pending');
    assert.equal(d5.attemptCount, 0);
    // Paused through the API (not this console): no one of ours to name, and it says so.
    assert.match(d5.explanation, new RegExp(`^waiting: webhook paused since ${CLOCK} through the API; attempt 1 of \\d+ goes out when it is resumed$`));
    assert.equal((await api('PATCH', `/v1/webhooks/${w5}`, { paused: false })).status, 200);
  });
});
