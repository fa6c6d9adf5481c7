// Own app: the console reaches its service through a loopback proxy (CONNECT_API_BASE_URL) that the test cuts, and a restart.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { startApp, type TApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { seedScaleSql } from '../bench/seed-scale';

// @ci-one-store: CI runs this file in the embedded-store pass only (the stream's keyset reads are the
// same SQL on any store, and its back-pressure is HTTP's).
// Issue 23, item 4: a webhook's export streams from the service (EXT GET /v1/webhooks/{id}/messages/stream)
// instead of a request per page and per message, writes what the page-at-a-time export wrote, and
// a slow reader holds the service's reading. The console reaches the service through a counting
// proxy (its CONNECT_API_BASE_URL), which can also play a service without the stream.

const MESSAGES = 600; // to each of two webhooks; 1 in 40 failed after 8 attempts (tests/bench/seed-scale.ts)
// Bytes of padding in each payload of the second webhook's messages: its stream (~80 MB) outgrows
// the buffers of the sockets on the way (loopback receive buffers grow to 16 MB here).
const PAD = 135_000;

type TProxy = { url: string; seen: string[]; streamBytes: number; oldService: boolean; target: (url: string) => void; close: () => Promise<void> };

/** A loopback proxy to the app that counts the API requests it passes and the stream's bytes read from the service; `oldService` plays one without the extensions. */
async function countingProxy(): Promise<TProxy> {
  let setTarget!: (u: URL) => void;
  const target = new Promise<URL>((resolve) => (setTarget = resolve));
  const state: TProxy = {
    url: '',
    seen: [],
    streamBytes: 0,
    oldService: false,
    target: (url) => setTarget(new URL(url)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer(async (req, res) => {
    const to = await target;
    // A service without the extensions: no stream, and a message's attempts not sent with it.
    const url = state.oldService ? (req.url ?? '/').replace(/([?&])withAttempts=true&?/, '$1') : (req.url ?? '/');
    state.seen.push(`${req.method} ${url}`);
    const isStream = url.includes('/messages/stream');
    if (isStream && state.oldService) {
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
      return;
    }
    const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: url, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      if (isStream) upRes.on('data', (chunk: Buffer) => (state.streamBytes += chunk.length));
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return state;
}

/** Runs SQL (several statements) on the app's store: PostgreSQL directly; PGlite with the app stopped meanwhile. */
async function execSql(app: TApp, text: string): Promise<void> {
  if (app.env.DATABASE_URL) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: app.env.DATABASE_URL });
    await client.connect();
    await client.query(text).finally(() => client.end());
    return;
  }
  await app.stop();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(app.env.DATA_DIR, 'pg'));
  try {
    await db.exec(text);
  } finally {
    await db.close();
    await app.restart();
  }
}

const apiRequests = (seen: string[]) => seen.filter((s) => /^\w+ \/(v1|oauth)\//.test(s));

describe('timeline export streamed from the service', () => {
  let proxy: TProxy;
  let app: TApp;
  let cookie: string;
  let tok: string;
  const webhookIds: string[] = [];
  let webhookId: string;
  let largeWebhookId: string;

  before(async () => {
    proxy = await countingProxy();
    app = await startApp({ env: { CONNECT_API_BASE_URL: proxy.url } });
    proxy.target(app.baseUrl);
    [cookie, tok] = await Promise.all([staffCookie(app), token(app)]);
    const seeds: string[] = [];
    for (const [k, name] of ['export stream', 'export stream (large)'].entries()) {
      const rcv = await call(app, 'POST', '/api/receivers', { body: { name }, headers: { cookie } });
      assert.equal(rcv.status, 201, rcv.text);
      const receiverPath = `/ingest/${rcv.body.slug}`;
      const url = `${app.baseUrl}${receiverPath}`;
      const w = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url, eventTypes: ['grant.succeeded'], description: name } });
      assert.equal(w.status, 201, w.text);
      webhookIds.push(w.body.id);
      const seed = seedScaleSql({
        from: k * MESSAGES,
        rows: MESSAGES,
        accountId: 'ACCOUNT',
        webhooks: [{ id: w.body.id, url, receiverId: rcv.body.id, receiverPath }],
        spreadSeconds: 86_400,
      });
      seeds.push(seed.replaceAll("'ACCOUNT'", `(select account_id from service.webhooks where id = '${w.body.id}')`));
    }
    [webhookId, largeWebhookId] = webhookIds;
    await execSql(
      app,
      `${seeds.join('\n')}
       update service.messages set payload = jsonb_set(payload::jsonb, '{data,pad}', to_jsonb(repeat('x', ${PAD})))::text
       where id > 'msg_Scale' || lpad('${MESSAGES}', 22, '0');`,
    );
  });

  after(async () => {
    await app?.stop();
    await proxy?.close();
  });

  const download = async (query: string) => {
    const res = await request(`${app.baseUrl}/api/webhooks/${webhookId}/export?${query}`, { headers: { cookie } });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, text.slice(0, 400));
    return text;
  };

  test('the service streams every message with its payload, attempts and newest response, as documented', async () => {
    const failed = await call(app, 'GET', `/v1/webhooks/${webhookId}/messages/stream?status=failed`, { token: tok });
    assert.equal(failed.status, 200);
    const lines = failed.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, MESSAGES / 40);
    assert.ok(lines.every((l) => l.status === 'failed' && l.attempts.length === 8 && l.lastAttempt.response === 'database down' && l.payload.data.email));
    assert.deepEqual(
      lines.map((l) => l.timestamp),
      lines
        .map((l) => l.timestamp)
        .sort()
        .reverse(),
      'newest first',
    );
    assert.equal((await call(app, 'GET', '/v1/webhooks/ep_0000000000000000000000000000/messages/stream', { token: tok })).status, 404);
    const bad = await call(app, 'GET', `/v1/webhooks/${webhookId}/messages/stream?status=bogus`, { token: tok });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /status/);
  });

  test('one request to the service for the whole export, and the same lines as a page at a time', async () => {
    proxy.seen = [];
    const streamed = await download('format=ndjson');
    const requests = apiRequests(proxy.seen);
    assert.equal(streamed.trimEnd().split('\n').length, MESSAGES);
    assert.equal(requests.filter((r) => r.includes('/messages/stream')).length, 1, requests.join('\n'));
    assert.deepEqual(
      requests.filter((r) => /\/messages(\?|\/msg_)/.test(r)),
      [],
      'no page or message requests',
    );
    assert.ok(requests.length <= 6, `a handful of requests, whatever the size:\n${requests.join('\n')}`);

    // A service without the stream: a page of the list at a time (and a call per failed message's response).
    proxy.oldService = true;
    try {
      proxy.seen = [];
      const paged = await download('format=ndjson');
      assert.ok(apiRequests(proxy.seen).filter((r) => /\/messages\?/.test(r)).length >= MESSAGES / 100, 'read page by page');
      assert.equal(paged, streamed);
      const csvPaged = await download('format=csv&includeDonor=1');
      proxy.oldService = false;
      assert.equal(await download('format=csv&includeDonor=1'), csvPaged);
      assert.equal(csvPaged.trimEnd().split('\n').length, MESSAGES + 1);
    } finally {
      proxy.oldService = false;
    }
  });

  test('a case export: one call per message, none per webhook or attempt, and the same bundle as before', async () => {
    const caseExport = async () => {
      const res = await call(app, 'GET', '/api/cases/scale40%40example.org/export?includeDonor=1', { headers: { cookie } });
      assert.equal(res.status, 200, res.text);
      return res.body.case;
    };
    proxy.seen = [];
    const now = await caseExport();
    const requests = apiRequests(proxy.seen);
    assert.equal(now.messages.length, 1);
    assert.equal(
      now.messages[0].deliveries.find((d: { webhook: { id: string } }) => d.webhook.id === webhookId).attempts.length,
      8,
      'message 40 failed after 8 attempts',
    );
    assert.deepEqual(
      requests.filter((r) => /\/attempts|\/webhooks\/[^/]+\/messages\//.test(r)),
      [],
      requests.join('\n'),
    );
    proxy.oldService = true;
    try {
      proxy.seen = [];
      const before = await caseExport();
      assert.ok(
        apiRequests(proxy.seen).some((r) => r.includes('/attempts')),
        'the old way asks for attempts',
      );
      assert.deepEqual({ ...now, fetchedAt: null }, { ...before, fetchedAt: null });
    } finally {
      proxy.oldService = false;
    }
  });

  test('a slow reader holds the reading from the service', async () => {
    proxy.streamBytes = 0;
    const res = await request(`${app.baseUrl}/api/webhooks/${largeWebhookId}/export?format=ndjson`, { headers: { cookie } });
    assert.equal(res.statusCode, 200);
    const chunks = res.body[Symbol.asyncIterator]();
    let received = ((await chunks.next()).value as Buffer).length;
    // Not reading: the service's reading comes to a stop well before the end.
    let held = -1;
    for (let stable = 0; stable < 5;) {
      await new Promise((r) => setTimeout(r, 200));
      stable = proxy.streamBytes === held ? stable + 1 : 0;
      held = proxy.streamBytes;
    }
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) received += (next.value as Buffer).length;
    const total = proxy.streamBytes;
    assert.ok(total > MESSAGES * PAD, `the whole stream went through (${total} bytes)`);
    assert.ok(held < total / 2, `while the reader waited, the console read ${held} of the stream's ${total} bytes`);
    assert.ok(received > MESSAGES * PAD, `the whole export arrived (${received} bytes)`);
  });

  // Issue 49, item 10: at most two heavy reports (exports, the reconciliation) at once per staff user
  // in a process; the third is a 429 with Retry-After. A held export is one whose reader does not read
  // (the large webhook's stream outgrows the sockets' buffers, so it stays open); one the client drops
  // mid-stream gives its slot back.
  test('reports: two at once per staff user, the third a 429 with Retry-After; a dropped download frees its slot', async () => {
    const held = async (who: string) => {
      const res = await request(`${app.baseUrl}/api/webhooks/${largeWebhookId}/export?format=ndjson`, { headers: { cookie: who } });
      assert.equal(res.statusCode, 200, res.statusCode === 200 ? '' : await res.body.text());
      await res.body[Symbol.asyncIterator]().next(); // under way, then not read
      return () => res.body.destroy(); // the client goes away mid-stream
    };
    type TAnswer = { status: number; retryAfter: unknown; text: string };
    const answer = async (res: Awaited<ReturnType<typeof request>>): Promise<TAnswer> => ({
      status: res.statusCode,
      retryAfter: res.headers['retry-after'],
      text: await res.body.text(),
    });
    /** A report that ends at once (a day with no grants). */
    const quick = async (who: string) => answer(await request(`${app.baseUrl}/api/reconciliation?date=2020-01-01`, { headers: { cookie: who } }));
    const created = await call(app, 'POST', '/api/users', { headers: { cookie }, body: { email: 'second-reporter@example.org', role: 'operator' } });
    assert.equal(created.status, 201, created.text);
    const other = await staffCookie(app, { email: 'second-reporter@example.org', password: created.body.password });

    const dropA = await held(cookie);
    const dropB = await held(cookie);
    for (const third of [
      await quick(cookie),
      await answer(await request(`${app.baseUrl}/api/webhooks/${webhookId}/export?format=csv`, { headers: { cookie } })),
    ]) {
      assert.equal(third.status, 429, third.text.slice(0, 300));
      assert.match(String(third.retryAfter), /^\d+$/);
      const problem = JSON.parse(third.text);
      assert.equal(problem.status, 429);
      assert.match(problem.detail, /two reports at once/i);
    }
    const bad = await answer(await request(`${app.baseUrl}/api/webhooks/${webhookId}/export?format=xml`, { headers: { cookie } }));
    assert.equal(bad.status, 400, `bad input is named first, whatever is running: ${bad.text}`);
    const page = await request(`${app.baseUrl}/reconciliation?date=2020-01-01`, { headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(await page.body.text(), /Two of your reports are running/, 'the reconciliation page reads the day as a report too');
    assert.equal((await quick(other)).status, 200, 'another staff user is not held back');
    assert.equal((await call(app, 'GET', `/api/webhooks/${webhookId}/timeline`, { headers: { cookie } })).status, 200, 'other console routes are not reports');

    dropA();
    await eventually(async () => (await quick(cookie)).status === 200, 10_000, 'the dropped download to give its slot back');
    dropB();
    const dropC = await held(cookie); // B's slot or A's
    await eventually(async () => (await quick(cookie)).status === 200, 10_000, 'the second dropped download to give its slot back');
    const dropD = await held(cookie);
    assert.equal((await quick(cookie)).status, 429, 'two held again');
    dropC();
    dropD();
  });
});
