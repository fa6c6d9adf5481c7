import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectApi } from '../../lib/console/connect-api/client';
import { ConnectApiError, isUnsupported } from '../../lib/console/connect-api/errors';
import { reconcile } from '../../lib/console/timeline/reconcile';
import { ADMIN, SANDBOX } from '../helpers/app';
import { call, eventually } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the console's API client over HTTP:
// the store is not in it).
// The console's API client against the real service (the suite's shared app). Faults (401, 503, 429,
// dropped connections, odd bodies) come from a small local proxy in front of the real service.

let app: TSharedApp;
const clients: ConnectApi[] = [];
const proxies: http.Server[] = [];

before(async () => {
  app = await sharedApp();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const p of proxies) p.close();
  await app?.stop();
});

/** The sandbox client: the console's own (CONNECT_CLIENT_ID), so the console sees what this client makes. */
const creds = () => ({ client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret });

function client(baseUrl = app.baseUrl, over: Partial<ConstructorParameters<typeof ConnectApi>[0]> = {}): ConnectApi {
  const c = new ConnectApi({
    baseUrl,
    authUrl: baseUrl,
    audience: SANDBOX.audience,
    clientId: creds().client_id,
    clientSecret: creds().client_secret,
    ...over,
  });
  clients.push(c);
  return c;
}

type TSeen = { method: string; path: string; auth: string; requestId: string };
type TFault =
  | { status: number; headers?: Record<string, string>; body?: string }
  | 'drop'
  | 'pass'
  | ((upstream: { status: number; headers: Headers; body: string }) => { status: number; body: string });

/** A proxy to the real app; `fault(req, n)` decides per request (n counts matching requests from 1). */
async function proxy(fault: (seen: TSeen, n: number) => TFault): Promise<{ url: string; seen: TSeen[] }> {
  const seen: TSeen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const s = { method: req.method!, path: req.url!, auth: req.headers.authorization ?? '', requestId: String(req.headers['x-request-id'] ?? '') };
    seen.push(s);
    const f = fault(s, seen.length);
    if (f === 'drop') return req.socket.destroy();
    if (f !== 'pass' && typeof f !== 'function') {
      res.writeHead(f.status, { 'content-type': 'application/problem+json', 'x-request-id': 'req_proxy', ...f.headers });
      return res.end(f.body ?? JSON.stringify({ type: 'about:blank', title: 'Injected', status: f.status, detail: `injected ${f.status}` }));
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)) headers[k] = v;
    const up = await fetch(`${app.baseUrl}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    let status = up.status;
    let body = await up.text();
    if (typeof f === 'function') ({ status, body } = f({ status, headers: up.headers, body }));
    res.writeHead(status, { 'content-type': up.headers.get('content-type') ?? 'application/json', 'x-request-id': up.headers.get('x-request-id') ?? '' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  proxies.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const EIN = '123456789';
const isApi = (s: TSeen) => s.path.startsWith('/v1/');

async function ensureNonprofit(): Promise<void> {
  await client().post('/v1/nonprofits', { body: { ein: EIN, user: { email: 'contact@example.org' } } });
}

describe('token handling', () => {
  test('one token is reused across 100 calls: 1 exchange', async () => {
    await ensureNonprofit();
    const api = client();
    for (let i = 0; i < 100; i++) assert.equal((await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })).ein, EIN);
    assert.equal(api.stats().tokenExchanges, 1);
  });

  test('20 concurrent cold calls share one exchange', async () => {
    await ensureNonprofit();
    const api = client();
    const results = await Promise.all(Array.from({ length: 20 }, () => api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })));
    assert.equal(results.length, 20);
    assert.equal(api.stats().tokenExchanges, 1);
  });

  test('a 401 from the API triggers one refresh and one retry', async () => {
    await ensureNonprofit();
    let rejected = 0;
    const p = await proxy((s) => (isApi(s) && rejected++ === 0 ? { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } } : 'pass'));
    const api = client(p.url);
    assert.equal((await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })).ein, EIN);
    assert.equal(api.stats().tokenExchanges, 2);
    assert.equal(p.seen.filter(isApi).length, 2);
  });

  test('a 401 that persists is reported after one refresh, not looped', async () => {
    const p = await proxy((s) => (isApi(s) ? { status: 401 } : 'pass'));
    const api = client(p.url);
    await assert.rejects(api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }), (err: ConnectApiError) => err.status === 401);
    assert.equal(p.seen.filter(isApi).length, 2);
    assert.equal(api.stats().tokenExchanges, 2);
  });

  test('20 concurrent calls that all meet a 401 share one refresh', async () => {
    await ensureNonprofit();
    let firstToken: string | undefined;
    const p = await proxy((s) => {
      if (!isApi(s)) return 'pass';
      firstToken ??= s.auth;
      return s.auth === firstToken ? { status: 401 } : 'pass'; // the first token is "revoked"
    });
    const api = client(p.url);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })));
    assert.equal(results.length, 20);
    assert.equal(api.stats().tokenExchanges, 2);
    assert.equal(p.seen.filter(isApi).length, 40);
  });

  test('the token is renewed shortly before it expires', async (t) => {
    await ensureNonprofit();
    const p = await proxy((s) =>
      s.path === '/oauth/token' ? (up) => ({ status: up.status, body: JSON.stringify({ ...JSON.parse(up.body), expires_in: 2 }) }) : 'pass',
    );
    // The client's clock stands still until the test moves it: on the real one, two calls slower
    // than a second (a loaded machine) renewed the token early (2 !== 1).
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const api = client(p.url);
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    assert.equal(api.stats().tokenExchanges, 1);
    t.mock.timers.tick(1100); // margin: half the 2 s lifetime
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    assert.equal(api.stats().tokenExchanges, 2);
  });

  test('bad credentials → ConnectApiError 401 with the OAuth error', async () => {
    const api = client(app.baseUrl, { clientSecret: 'definitely-wrong' });
    await assert.rejects(api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }), (err: ConnectApiError) => {
      assert.ok(err instanceof ConnectApiError);
      assert.equal(err.status, 401);
      assert.equal(err.problem?.title, 'invalid_client');
      assert.match(err.problem?.detail ?? '', /token exchange failed/i);
      assert.equal(err.problem?.detail, 'The token exchange failed: Unknown client or wrong client secret.', 'one full stop, not two');
      return true;
    });
  });
});

describe('retries', () => {
  test('an idempotent call is retried on 503 and succeeds', async () => {
    await ensureNonprofit();
    const p = await proxy((s) => (isApi(s) && p.seen.filter(isApi).length <= 2 ? { status: 503, headers: { 'retry-after': '0' } } : 'pass'));
    const api = client(p.url);
    assert.equal((await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })).ein, EIN);
    assert.equal(p.seen.filter(isApi).length, 3);
  });

  test('gives up after 3 tries and reports the 503', async () => {
    const p = await proxy((s) => (isApi(s) ? { status: 503 } : 'pass'));
    const api = client(p.url);
    await assert.rejects(
      api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }),
      (err: ConnectApiError) => err.status === 503 && err.requestId === 'req_proxy',
    );
    assert.equal(p.seen.filter(isApi).length, 3);
  });

  test('Retry-After on 429 is honoured', async () => {
    await ensureNonprofit();
    const p = await proxy((s) => (isApi(s) && p.seen.filter(isApi).length === 1 ? { status: 429, headers: { 'retry-after': '1' } } : 'pass'));
    const api = client(p.url);
    const started = Date.now();
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    assert.equal(p.seen.filter(isApi).length, 2);
  });

  test('a dropped connection is retried for idempotent calls', async () => {
    await ensureNonprofit();
    const p = await proxy((s) => (isApi(s) && p.seen.filter(isApi).length === 1 ? 'drop' : 'pass'));
    const api = client(p.url);
    assert.equal((await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } })).ein, EIN);
    assert.equal(p.seen.filter(isApi).length, 2);
  });

  test('a non-idempotent call (create webhook) is not retried', async () => {
    const p = await proxy((s) => (isApi(s) ? { status: 503 } : 'pass'));
    const api = client(p.url);
    await assert.rejects(
      api.post('/v1/webhooks', { body: { url: 'https://example.org/hook', eventTypes: ['grant.succeeded'] } }),
      (err: ConnectApiError) => err.status === 503,
    );
    assert.equal(p.seen.filter(isApi).length, 1);
  });

  test('an unreachable API → ConnectApiError with status 0 and a readable detail', async () => {
    const api = client('http://127.0.0.1:9');
    await assert.rejects(
      api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }),
      (err: ConnectApiError) => err.status === 0 && /could not reach/i.test(err.problem?.detail ?? ''),
    );
  });
});

describe('reachability', () => {
  test('logged once per change of state (reachable → unreachable → reachable), with the request id both sides know, no secrets', async () => {
    await ensureNonprofit();
    let down = false;
    const p = await proxy(() => (down ? 'drop' : 'pass'));
    const lines: string[] = [];
    const api = new ConnectApi(
      { name: 'sandbox', baseUrl: p.url, authUrl: p.url, audience: SANDBOX.audience, clientId: creds().client_id, clientSecret: creds().client_secret },
      { log: { down: (l) => lines.push(l), up: (l) => lines.push(l) } },
    );
    clients.push(api);
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    assert.equal(lines.length, 0, "the first state is the start check's to report");

    down = true;
    for (let i = 0; i < 3; i++)
      await assert.rejects(
        api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }),
        (err: ConnectApiError) => err.status === 0 && /^req_/.test(err.requestId ?? ''),
      );
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /^Connect API sandbox: http:\/\/127\.0\.0\.1:\d+ unreachable \(get nonprofit: \S+; request id req_[0-9a-f]{32}\)$/);
    assert.ok(
      p.seen.some((s) => lines[0].includes(s.requestId)),
      'the id is the one the request carried',
    );

    down = false;
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[1], /^Connect API sandbox: http:\/\/127\.0\.0\.1:\d+ reachable again \(get nonprofit answered 200; request id req_[0-9a-f]{32}\)$/);
    const sent = p.seen.filter(isApi).at(-2)!.requestId;
    assert.ok(lines[1].includes(sent), 'the service adopted the id the console sent');
    for (const line of lines) assert.doesNotMatch(line, new RegExp(`${creds().client_secret}|Bearer|eyJ`));
  });

  test('a gateway 503 counts as unreachable; a 404 is an answer', async () => {
    let mode: 'pass' | '503' | '404' = 'pass';
    const p = await proxy((s) => (isApi(s) && mode !== 'pass' ? { status: Number(mode), headers: { 'retry-after': '0' } } : 'pass'));
    const lines: string[] = [];
    const api = new ConnectApi(
      { baseUrl: p.url, authUrl: p.url, audience: SANDBOX.audience, clientId: creds().client_id, clientSecret: creds().client_secret },
      { log: { down: (l) => lines.push(l), up: (l) => lines.push(l) } },
    );
    clients.push(api);
    await api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } });
    mode = '503';
    await assert.rejects(api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }));
    mode = '404';
    await assert.rejects(api.get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0], /unreachable \(get nonprofit answered 503; request id req_proxy\)$/);
    assert.match(lines[1], /reachable again \(get nonprofit answered 404; request id req_proxy\)$/);
  });
});

describe('errors and parsing', () => {
  test('a 404 carries status, problem detail and the request id', async () => {
    const api = client();
    await assert.rejects(api.get('/v1/nonprofit/{ein}', { params: { path: { ein: '234567891' } } }), (err: ConnectApiError) => {
      assert.ok(err instanceof ConnectApiError);
      assert.equal(err.status, 404);
      assert.equal(typeof err.problem?.detail, 'string');
      assert.match(err.requestId ?? '', /^[A-Za-z0-9._:-]{8,}$/);
      assert.equal(isUnsupported(err), false);
      return true;
    });
  });

  test('a 400 carries the field errors', async () => {
    const api = client();
    await assert.rejects(api.post('/v1/nonprofits', { body: { ein: '12', user: { email: 'nope' } } }), (err: ConnectApiError) => {
      assert.equal(err.status, 400);
      assert.ok(
        err.problem?.errors?.some((e) => e.path === 'ein'),
        JSON.stringify(err.problem),
      );
      return true;
    });
  });

  test('an answer that does not match the schema → ConnectApiError 502, never a crash', async () => {
    const p = await proxy((s) => (isApi(s) ? { status: 200, body: '{"id":42}', headers: { 'content-type': 'application/json' } } : 'pass'));
    await assert.rejects(
      client(p.url).get('/v1/nonprofit/{ein}', { params: { path: { ein: EIN } } }),
      (err: ConnectApiError) => err.status === 502 && /unexpected body/.test(err.message),
    );
  });

  test('EXT routes missing from the service are reported unsupported', async () => {
    // a service without the webhook list, webhook reads and resend (404 on those routes), but
    // with messages (the core routes)
    const p = await proxy((s) => {
      if (!isApi(s)) return 'pass';
      if (/^\/v1\/webhooks(\?|$)/.test(s.path) || /^\/v1\/webhooks\/[^/]+(\?|$)/.test(s.path)) return { status: 404 };
      if (/\/messages(\?|$)/.test(s.path)) return { status: 200, body: '{"results":[]}' };
      if (/\/secret\/rotate$/.test(s.path)) return { status: 405 };
      return { status: 404 };
    });
    const api = client(p.url);
    await assert.rejects(api.get('/v1/webhooks'), (err) => isUnsupported(err));
    await assert.rejects(api.get('/v1/webhooks/{id}', { params: { path: { id: 'ep_x' } } }), (err) => isUnsupported(err));
    await assert.rejects(api.post('/v1/webhooks/{id}/secret/rotate', { params: { path: { id: 'ep_x' } } }), (err) => isUnsupported(err));
    // …but a webhook that does not exist is a plain 404
    const p2 = await proxy((s) => (isApi(s) ? { status: 404 } : 'pass'));
    await assert.rejects(
      client(p2.url).get('/v1/webhooks/{id}', { params: { path: { id: 'ep_gone' } } }),
      (err: ConnectApiError) => err.status === 404 && !isUnsupported(err),
    );
  });
});

/** A signed-in staff session's JSON calls to the console. */
async function staffSession() {
  const login = await call(app, 'POST', '/api/session', { body: { email: ADMIN.email, password: ADMIN.password } });
  assert.equal(login.status, 200, login.text);
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  return (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
}

describe('against the real service, end to end', () => {
  test('a subscription to a console receiver: test event → successful attempt → verified receipt', async () => {
    const staff = await staffSession();
    const receiver = (await staff('POST', '/api/receivers', { name: 'e2e' })).body;

    const api = client();
    const webhook = await api.post('/v1/webhooks', { body: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'console test' } });
    assert.match(webhook.id, /^ep_/);
    assert.ok((await api.get('/v1/webhooks', { params: { query: { pageLimit: 100 } } })).results.some((w) => w.id === webhook.id));
    assert.equal((await api.get('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } })).url, receiver.ingestUrl);
    const { key } = await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } });
    assert.match(key, /^whsec_/);
    assert.equal((await staff('PATCH', `/api/receivers/${receiver.id}`, { secrets: [key] })).status, 200);

    const message = await api.post('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } }, body: {} });
    assert.match(message.id, /^msg_/);
    const attempts = await eventually(
      async () => {
        const page = await api.get('/v1/webhooks/{id}/messages/{messageId}/attempts', { params: { path: { id: webhook.id, messageId: message.id } } });
        return page.results.some((a) => a.status === 'success') && page.results;
      },
      15000,
      'a successful attempt',
    );
    const receipts = (await staff('GET', `/api/receivers/${receiver.id}/receipts`)).body.results;
    const mine = receipts.filter((r: { messageId: string }) => r.messageId === message.id);
    assert.equal(mine.length, 1);
    assert.equal(mine[0].verdict, 'valid', mine[0].verdictReason);
    const delivery = { status: 'success', attemptCount: attempts.length, responseStatusCodes: attempts.map((a) => a.responseStatusCode) };
    assert.equal(reconcile({ delivery, observed: true, receipts: mine }), 'delivered-and-received');

    const full = await api.get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhook.id, messageId: message.id } } });
    assert.equal((full.payload as { type: string }).type, 'grant.succeeded');
    assert.equal(
      typeof (
        await api.get('/v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId}', {
          params: { path: { id: webhook.id, messageId: message.id, attemptId: attempts[0].id } },
        })
      ).response,
      'string',
    );
    assert.ok(
      (await api.get('/v1/webhooks/{id}/messages', { params: { path: { id: webhook.id }, query: { pageLimit: 5 } } })).results.some((m) => m.id === message.id),
    );

    assert.equal((await api.patch('/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body: { disabled: true } })).disabled, true);
    await assert.rejects(api.post('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } }, body: {} }), (err: ConnectApiError) => err.status === 409);
    assert.notEqual((await api.post('/v1/webhooks/{id}/secret/rotate', { params: { path: { id: webhook.id } } })).key, key);
    await api.delete('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } });
    await assert.rejects(
      api.get('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }),
      (err: ConnectApiError) => err.status === 404 && !isUnsupported(err),
    );
  });

  test('the timeline feed: retries after a 500 are no duplicates, a resend after the 2xx is; pageLimit and pageToken page it', async () => {
    const staff = await staffSession();
    const receiver = (await staff('POST', '/api/receivers', { name: 'timeline drill' })).body;
    const api = client();
    const webhook = await api.post('/v1/webhooks', { body: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'] } });
    // The receiver holds the webhook's secret: without one nothing is verified, and that is never green.
    const { key } = await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } });
    assert.equal((await staff('PATCH', `/api/receivers/${receiver.id}`, { responseStatus: 500, secrets: [key] })).status, 200);
    const message = await api.post('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } }, body: {} });
    type TRow = { id: string; status: string; reconciliation: string; receipts: { duplicate: boolean; responseStatus: number }[] };
    const row = async (query = '') => {
      const res = await staff('GET', `/api/webhooks/${webhook.id}/timeline${query}`);
      assert.equal(res.status, 200, res.text);
      return (res.body.messages as TRow[]).find((m) => m.id === message.id);
    };

    // DELIVERY_RETRY_SCHEDULE=1,1,…: the receiver refuses, the service retries
    const refused = await eventually(
      async () => {
        const m = await row();
        return m && m.receipts.length >= 2 && m;
      },
      15000,
      'two refused arrivals',
    );
    assert.deepEqual(refused.receipts.map((r) => [r.responseStatus, r.duplicate]).slice(0, 2), [
      [500, false],
      [500, false],
    ]);
    assert.equal(refused.reconciliation, 'received-answered-error');

    assert.equal((await staff('PATCH', `/api/receivers/${receiver.id}`, { responseStatus: 200 })).status, 200);
    const delivered = await eventually(
      async () => {
        const m = await row();
        return m && m.status === 'success' && m;
      },
      15000,
      'the retry that succeeds',
    );
    assert.ok(
      delivered.receipts.every((r) => !r.duplicate),
      'no arrival before the first 2xx is a duplicate',
    );
    assert.equal(delivered.reconciliation, 'delivered-and-received');

    await api.post('/v1/webhooks/{id}/messages/{messageId}/resend', { params: { path: { id: webhook.id, messageId: message.id } } });
    const resent = await eventually(
      async () => {
        const m = await row();
        return m && m.receipts.filter((r) => r.responseStatus === 200).length === 2 && m;
      },
      15000,
      'the resent arrival',
    );
    assert.deepEqual(
      resent.receipts.map((r) => r.duplicate),
      [...resent.receipts.slice(0, -1).map(() => false), true],
      'only the arrival after the 2xx is a duplicate',
    );
    assert.equal(resent.reconciliation, 'duplicate');

    const newer = await api.post('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } }, body: {} });
    const p1 = (await staff('GET', `/api/webhooks/${webhook.id}/timeline?pageLimit=1`)).body;
    assert.deepEqual(
      p1.messages.map((m: TRow) => m.id),
      [newer.id],
    );
    assert.equal(typeof p1.nextPageToken, 'string');
    const p2 = (await staff('GET', `/api/webhooks/${webhook.id}/timeline?pageLimit=1&pageToken=${encodeURIComponent(p1.nextPageToken)}`)).body;
    assert.deepEqual(
      p2.messages.map((m: TRow) => m.id),
      [message.id],
    );
    assert.equal(p2.nextPageToken, null);
    const p = await staff('GET', `/api/webhooks/${webhook.id}/timeline?pageLimit=0`);
    assert.equal(p.status, 400, p.text);
    assert.match(p.body.detail, /pageLimit/);
  });
});
