// Own app: CONSOLE_RECEIVER_HOSTS and TRUST_PROXY (its older release's receipts: tests/upgrade/receiver-addresses.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { canBindIpv6, freePort, startApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';

// @ci-one-store: CI runs this file in the embedded-store pass only (which URL a receiver answers to
// does not depend on the store).
// One receiver of this console reached through every address form integrators paste, on an app
// whose URL says `localhost` (the default setup): localhost, 127.0.0.1, [::1], a reverse proxy on
// another loopback port that sets X-Forwarded-Host (listed in CONSOLE_RECEIVER_HOSTS), and a second
// proxy nobody listed (learned from its first verified arrival). One grant: five arrivals at one
// receiver, each claimed by the webhook whose URL it came to — one receipt per timeline, all green,
// nothing claimed twice. Beside them a receiver holding another secret answers 200: the service
// counts the message delivered, and the problems view must list it.

type TStarted = Awaited<ReturnType<typeof startApp>>;
type TReceipt = { id: number; verdict: string; duplicate: boolean; responseStatus: number; host: string };
type TRow = { id: string; status: string; reconciliation: string; receipts: TReceipt[]; explanation: string };

let app: TStarted;
let tok: string;
let cookie: string;
const S = `whsec_${randomBytes(32).toString('base64')}`;
const OTHER = `whsec_${randomBytes(32).toString('base64')}`;
const proxies: http.Server[] = [];
let listedProxyPort = 0;
let unlistedProxyPort = 0;
let ipv6 = false;
const W: Record<string, string> = {};
let messageId = '';
let receiverId = '';

const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(app, method, path, { token: tok, body, headers });

/** A reverse proxy on a loopback port: forwards to the app, telling it the host it was reached under. */
async function startProxy(port: number): Promise<void> {
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: app.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${app.port}`, 'x-forwarded-host': req.headers.host ?? '', 'x-forwarded-proto': 'http' },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  proxies.push(server);
}

/** A grant from a new nonprofit's Connect: one grant.succeeded message to every webhook. */
async function give(): Promise<void> {
  const ein = `47${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const np = await api('POST', '/v1/nonprofits', { ein, user: { email: 'director@example.org' } });
  const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
  const connect = await api('GET', `/v1/connects/${created.body.id}`);
  const g = await api(
    'POST',
    '/v1/grants',
    { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' },
    { 'x-service-api-key': connect.body.apiKey },
  );
  assert.equal(g.status, 201, g.text);
}

async function timelineRow(webhookId: string, id = messageId): Promise<TRow | undefined> {
  const res = await staff('GET', `/api/webhooks/${webhookId}/timeline`);
  assert.equal(res.status, 200, res.text);
  return (res.body.messages as TRow[]).find((m) => m.id === id);
}

describe('receivers reached by any address', () => {
  before(
    async () => {
      ipv6 = await canBindIpv6();
      listedProxyPort = await freePort();
      unlistedProxyPort = await freePort();
      app = await startApp({
        publicHost: 'localhost',
        env: { TRUST_PROXY: 'true', CONSOLE_RECEIVER_HOSTS: `127.0.0.1:${listedProxyPort}` },
      });
      await startProxy(listedProxyPort);
      await startProxy(unlistedProxyPort);
      tok = await token(app);
      cookie = await staffCookie(app);

      const receiver = await staff('POST', '/api/receivers', { name: 'shared by five addresses', secret: S });
      assert.equal(receiver.status, 201, receiver.text);
      assert.equal(receiver.body.ingestUrl, `http://localhost:${app.port}/ingest/${receiver.body.slug}`, 'the console hands out its localhost URL');
      receiverId = receiver.body.id;
      const wrong = await staff('POST', '/api/receivers', { name: 'holds another secret', secret: OTHER });
      assert.equal(wrong.status, 201, wrong.text);
      const twin = await staff('POST', '/api/receivers', { name: 'two webhooks, one URL', secret: S });
      assert.equal(twin.status, 201, twin.text);
      const path = `/ingest/${receiver.body.slug}`;
      const urls: Record<string, string> = {
        localhost: `http://localhost:${app.port}${path}`,
        loopback: `http://127.0.0.1:${app.port}${path}`,
        ...(ipv6 ? { ipv6: `http://[::1]:${app.port}${path}` } : {}),
        listedProxy: `http://127.0.0.1:${listedProxyPort}${path}`,
        unlistedProxy: `http://127.0.0.1:${unlistedProxyPort}${path}`,
        wrongSecret: `http://127.0.0.1:${app.port}/ingest/${wrong.body.slug}`,
        twinA: twin.body.ingestUrl,
        twinB: twin.body.ingestUrl,
      };
      for (const [name, url] of Object.entries(urls)) {
        const res = await api('POST', '/v1/webhooks', { url, eventTypes: ['grant.succeeded'], description: name, secret: S });
        assert.equal(res.status, 201, res.text);
        W[name] = res.body.id;
      }

      await give();
      await eventually(
        async () => {
          const lists = await Promise.all(Object.values(W).map((id) => api('GET', `/v1/webhooks/${id}/messages`)));
          const first = lists.map((l) => l.body.results?.[0]);
          if (first.some((m) => !m || m.status !== 'success')) return false;
          messageId = first[0].id;
          return true;
        },
        20_000,
        'every webhook delivered',
      );
    },
    { timeout: 120_000 },
  );

  after(async () => {
    for (const p of proxies) await new Promise((r) => p.close(r));
    await app?.destroy();
  });

  test('each address form: its timeline is green with exactly the one arrival that came to its URL', async () => {
    const seen = new Map<number, string>();
    for (const name of Object.keys(W).filter((n) => !['wrongSecret', 'twinA', 'twinB'].includes(n))) {
      const row = await eventually(
        async () => {
          const r = await timelineRow(W[name]);
          return r && r.reconciliation === 'delivered-and-received' && r;
        },
        10_000,
        `${name}: delivered and received`,
      );
      assert.equal(row.receipts.length, 1, `${name}: one receipt, got ${JSON.stringify(row.receipts)}`);
      const [receipt] = row.receipts;
      assert.equal(receipt.verdict, 'valid');
      assert.equal(receipt.duplicate, false, `${name}: the other addresses' arrivals make no duplicate`);
      assert.ok(!seen.has(receipt.id), `${name} claims receipt ${receipt.id} that ${seen.get(receipt.id)} claimed`);
      seen.set(receipt.id, name);
    }
    const hosts = [...seen.entries()].map(([, name]) => name);
    assert.equal(hosts.length, ipv6 ? 5 : 4);
  });

  test('the receiver page lists every webhook delivering there, whichever address it uses (CONSOLE_RECEIVER_HOSTS, loopback, a learned proxy): as their own pages say', async () => {
    // It listed only the webhook whose URL was the ingest URL the console hands out (issue 50, finding 7).
    const page = await staff('GET', `/receivers/${receiverId}`);
    assert.equal(page.status, 200, page.text);
    const list = /data-testid="delivering-webhooks"[\s\S]*?<\/ul>/.exec(page.text)?.[0] ?? '';
    for (const name of Object.keys(W).filter((n) => !['wrongSecret', 'twinA', 'twinB'].includes(n))) {
      assert.ok(list.includes(W[name]), `${name} (${W[name]}) is listed as delivering here`);
    }
    for (const name of ['wrongSecret', 'twinA', 'twinB']) assert.ok(!list.includes(W[name]), `${name} delivers to another receiver`);
    assert.ok(!page.text.includes('points at this receiver'));
  });

  test('the proxy’s public address is what the receipt records (X-Forwarded-Host with TRUST_PROXY)', async () => {
    const row = await timelineRow(W.listedProxy);
    assert.equal(row?.receipts[0].host, `127.0.0.1:${listedProxyPort}`);
    const direct = await timelineRow(W.loopback);
    assert.equal(direct?.receipts[0].host, `127.0.0.1:${app.port}`);
  });

  test('the case shows every webhook green with its own arrival, and none left unexplained', async () => {
    const res = await staff('GET', `/api/search?q=${messageId}`);
    assert.equal(res.status, 200, res.text);
    const message = res.body.messages.find((m: { id: string }) => m.id === messageId);
    const byWebhook = new Map<string, { reconciliation: string; receipts: TReceipt[] }>(
      message.deliveries.map((d: { webhook: { id: string } }) => [d.webhook.id, d]),
    );
    for (const name of Object.keys(W).filter((n) => !['wrongSecret', 'twinA', 'twinB'].includes(n))) {
      const d = byWebhook.get(W[name]);
      assert.equal(d?.reconciliation, 'delivered-and-received', `${name} on the case`);
      assert.equal(d?.receipts.length, 1, `${name}: one arrival on the case`);
    }
    assert.equal(byWebhook.get(W.wrongSecret)?.reconciliation, 'received-bad-signature');
    assert.deepEqual(message.otherReceipts, []);
  });

  test('problems: the webhook the service counts delivered while its receiver failed the signature is listed; the others are not', async () => {
    const res = await staff('GET', '/api/problems');
    assert.equal(res.status, 200, res.text);
    const items = res.body.items as { webhookId: string; id: string; reconciliation: string; status: string }[];
    const mine = items.filter((i) => i.id === messageId);
    assert.deepEqual(
      mine.map((i) => [i.webhookId, i.status, i.reconciliation]),
      [[W.wrongSecret, 'success', 'received-bad-signature']],
    );
  });

  test('two webhooks with exactly the same URL: both timelines show both arrivals, say so, and call neither a duplicate', async () => {
    for (const [me, other] of [
      ['twinA', 'twinB'],
      ['twinB', 'twinA'],
    ]) {
      const res = await staff('GET', `/api/webhooks/${W[me]}/timeline`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.sharedUrlWith.map((w: { id: string }) => w.id),
        [W[other]],
      );
      const row = (res.body.messages as TRow[]).find((m) => m.id === messageId)!;
      assert.equal(row.receipts.length, 2);
      assert.deepEqual(
        row.receipts.map((r) => r.duplicate),
        [false, false],
      );
      assert.equal(row.reconciliation, 'delivered-and-received');
      assert.match(row.explanation, new RegExp(`${W[other]} has this same URL`));
    }
  });

  test('recover: at a receiver two webhooks reach by different addresses, only the one whose own arrival failed has a message to re-send', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const shared = await staff('POST', '/api/receivers', { name: 'split by address', secret: S });
    assert.equal(shared.status, 201, shared.text);
    const path = `/ingest/${shared.body.slug}`;
    const made = await Promise.all([
      api('POST', '/v1/webhooks', {
        url: `http://localhost:${app.port}${path}`,
        eventTypes: ['grant.succeeded'],
        description: 'split: right secret',
        secret: S,
      }),
      api('POST', '/v1/webhooks', {
        url: `http://127.0.0.1:${app.port}${path}`,
        eventTypes: ['grant.succeeded'],
        description: 'split: wrong secret',
        secret: OTHER,
      }),
    ]);
    const [good, bad] = made.map((res) => {
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    });
    await give();
    const id = await eventually(
      async () => {
        const [g, b] = await Promise.all([good, bad].map(async (w) => (await api('GET', `/v1/webhooks/${w}/messages`)).body.results?.[0]));
        return g?.status === 'success' && b?.status === 'success' && g.id;
      },
      20_000,
      'both delivered',
    );
    await eventually(async () => (await timelineRow(bad, id))?.reconciliation === 'received-bad-signature', 10_000, 'the wrong secret’s arrival failed');
    assert.equal((await timelineRow(good, id))?.reconciliation, 'delivered-and-received', 'the other address’s failure is not this webhook’s');
    const preview = async (w: string) => {
      const res = await staff('GET', `/api/webhooks/${w}/resend-delivered?since=${encodeURIComponent(since)}`);
      assert.equal(res.status, 200, res.text);
      return res.body as { messages: number; messageIds: string[] };
    };
    assert.deepEqual((await preview(bad)).messageIds, [id]);
    assert.deepEqual(await preview(good).then((p) => [p.messages, p.messageIds]), [0, []], 'nothing to re-send where the arrival verified');
  });
});
