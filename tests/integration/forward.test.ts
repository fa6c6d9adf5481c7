// Own app: one app that refuses private addresses and one whose receipt bodies expire in seconds; the rest uses the shared app.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { freePort, startApp, type TApp } from '../helpers/app';
import { messageWhen, sendTest } from '../helpers/delivery';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';
import { verifyWith } from '../helpers/receiver';
import { SANDBOX_CLIENT, sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (a forward and its stored reply
// are the same on any store; PostgreSQL was checked by hand when it landed).
// Forwarding a receipt (POST /api/receipts/{id}/forward) and "Copy as cURL", against the built app
// and a loopback server that records each request's raw bytes and headers in order:
//   verbatim   the server sees the stored body byte for byte and the stored signature headers;
//   resign     a new timestamp, and a signature that verifies under the receiver's (or a given) secret;
//   refused    a private address (10.0.0.1, classified before any connection, whatever the setting)
//              and, in an app started with DELIVERY_ALLOW_PRIVATE=false, loopback by address and by
//              name: 400 naming the rule, nothing sent, nothing stored;
//   dead port  a forward kept with its network error; a reply over 64 KiB kept cut, and said so; a 302 kept, not followed;
//   roles      a viewer gets 403, and no cURL command; bad fields are 400s naming them;
//   retention  a purged receipt body takes its forwards' reply bodies along;
//   cURL       the command of a UTF-8 and of a binary receipt, and of an attempt, run by bash, sends the same bytes.

const run = promisify(execFile);
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const SECRET = newSecret();
const OTHER = newSecret();

type THit = { method: string; path: string; rawHeaders: [string, string][]; body: Buffer };

async function startRecorder() {
  const hits: THit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) raw.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      hits.push({ method: req.method ?? '', path: req.url ?? '', rawHeaders: raw, body: Buffer.concat(chunks) });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/redirected' });
        res.end();
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(70 * 1024));
        return;
      }
      res.writeHead(202, { 'content-type': 'application/json', 'x-seen-by': 'recorder' });
      res.end(JSON.stringify({ seen: req.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    hits,
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let app: TSharedApp;
let recorder: Awaited<ReturnType<typeof startRecorder>>;
const cookies: Record<string, string> = {};
let receiverId = '';
let slug = '';
let ingestUrl = '';
const as = (who: string, method: string, url: string, body?: unknown) =>
  call(app, method, url, { headers: { cookie: cookies[who] }, ...(body === undefined ? {} : { body }) });

/** Sends `body` to the receiver's ingest URL signed by `secret` `ageSeconds` ago, with a few headers of our own, and returns the stored receipt. */
async function ingest(
  target: Pick<TApp, 'baseUrl'>,
  cookie: string,
  rid: string,
  s: string,
  body: Buffer,
  { ageSeconds = 3600, id = `msg_fwd${randomBytes(6).toString('hex')}` } = {},
) {
  const at = new Date(Date.now() - ageSeconds * 1000);
  const signature = new Webhook(SECRET).sign(id, at, body.toString('utf8'));
  const res = await fetch(`${target.baseUrl}/ingest/${s}`, {
    method: 'POST',
    headers: [
      ['X-Trace', 'first'],
      ['content-type', 'application/json; charset=utf-8'],
      ['webhook-id', id],
      ['webhook-timestamp', String(Math.floor(at.getTime() / 1000))],
      ['webhook-signature', signature],
      ['X-Empty', ''],
      ['x-quote', `it's "quoted" $HOME \`x\``],
    ],
    body: new Uint8Array(body),
  });
  assert.ok(res.status < 500, await res.text());
  const list = await call(target, 'GET', `/api/receivers/${rid}/receipts`, { headers: { cookie } });
  const found = list.body.results.find((r: { messageId: string }) => r.messageId === id);
  assert.ok(found, `the receipt of ${id} is stored`);
  return (await call(target, 'GET', `/api/receipts/${found.id}`, { headers: { cookie } })).body as {
    id: number;
    verdict: string;
    headers: [string, string][];
    body: string | null;
    curl: string | null;
    curlUtf8: boolean | null;
    forwards: {
      id: number;
      status: number;
      error: string | null;
      responseTruncated: boolean;
      responseSize: number;
      mode: string;
      responseBody: string | null;
    }[];
  };
}

const header = (h: [string, string][], name: string) => h.find(([n]) => n.toLowerCase() === name)?.[1];
const forwardable = (h: [string, string][]) => h.filter(([n]) => !['host', 'content-length', 'connection', 'transfer-encoding'].includes(n.toLowerCase()));

before(async () => {
  recorder = await startRecorder();
  app = await sharedApp();
  cookies.admin = await staffCookie(app);
  for (const role of ['viewer', 'operator'] as const) {
    const res = await as('admin', 'POST', '/api/users', { email: `fwd-${role}@example.org`, role });
    assert.equal(res.status, 201, res.text);
    cookies[role] = await staffCookie(app, { email: `fwd-${role}@example.org`, password: res.body.password });
  }
  const receiver = await as('admin', 'POST', '/api/receivers', { name: 'Forwarded', secret: SECRET });
  assert.equal(receiver.status, 201, receiver.text);
  receiverId = receiver.body.id;
  slug = receiver.body.slug;
  ingestUrl = receiver.body.ingestUrl;
});
after(async () => {
  await app?.destroy();
  await recorder?.close();
});

describe('forward a receipt', () => {
  test('verbatim: the stored bytes and signature headers, in the stored order; the reply kept beside the receipt', async () => {
    const body = Buffer.from('{"type":"grant.succeeded","data":{"amount":15000,"note":"Ünïcode ✓ \\u0000"}}\n');
    const receipt = await ingest(app, cookies.admin, receiverId, slug, body);
    const res = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/verbatim'), mode: 'verbatim' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 202);
    assert.equal(res.body.error, null);
    assert.equal(typeof res.body.elapsedMs, 'number');
    assert.deepEqual(JSON.parse(res.body.responseBody), { seen: '/verbatim' });
    assert.ok(res.body.responseHeaders.some(([n, v]: [string, string]) => n === 'x-seen-by' && v === 'recorder'));

    const hit = recorder.hits.find((h) => h.path === '/verbatim')!;
    assert.ok(hit, 'the recorder got the forward');
    assert.equal(hit.method, 'POST');
    assert.ok(hit.body.equals(body), 'byte-identical body');
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-trace', 'x-quote']) {
      assert.equal(header(hit.rawHeaders, name), header(receipt.headers, name), name);
    }
    assert.equal(header(hit.rawHeaders, 'x-empty'), '');
    // The stored headers, less the hop-by-hop ones, arrive in the stored order.
    const stored = forwardable(receipt.headers).map(([n]) => n.toLowerCase());
    const seen = hit.rawHeaders.map(([n]) => n.toLowerCase()).filter((n) => stored.includes(n));
    assert.deepEqual(seen, stored);

    const again = await as('admin', 'GET', `/api/receipts/${receipt.id}`);
    assert.equal(again.body.forwards.length, 1);
    assert.equal(again.body.forwards[0].id, res.body.id);
    assert.equal(again.body.forwards[0].mode, 'verbatim');
    const page = await as('admin', 'GET', `/receipts/${receipt.id}`);
    assert.match(page.text, /data-testid="forward"/);
    assert.ok(page.text.includes(recorder.url('/verbatim')));
    const audit = await as('admin', 'GET', `/api/audit?action=receipt.forward&target=${receipt.id}`);
    assert.equal(audit.status, 200, audit.text);
    assert.ok(
      audit.body.results.some((e: { result: string; actor: string }) => e.result === 'ok' && e.actor === 'fwd-operator@example.org'),
      audit.text,
    );
  });

  test('resign: the same body and webhook-id, a fresh timestamp, signed under the receiver’s secret or a given one', async () => {
    const body = Buffer.from(JSON.stringify({ type: 'grant.succeeded', data: { amount: 4200 } }));
    const receipt = await ingest(app, cookies.admin, receiverId, slug, body, { ageSeconds: 3600 });
    const storedTs = Number(header(receipt.headers, 'webhook-timestamp'));
    assert.equal(
      verifyWith(SECRET, body.toString(), Object.fromEntries(receipt.headers.map(([n, v]) => [n.toLowerCase(), v])), 'webhook'),
      false,
      'the stored request is past the tolerance',
    );

    const own = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/resign'), mode: 'resign' });
    assert.equal(own.status, 201, own.text);
    const given = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/resign-given'), mode: 'resign', secret: OTHER });
    assert.equal(given.status, 201, given.text);

    for (const [path, secret, wrong] of [
      ['/resign', SECRET, OTHER],
      ['/resign-given', OTHER, SECRET],
    ] as const) {
      const hit = recorder.hits.find((h) => h.path === path)!;
      const headers = Object.fromEntries(hit.rawHeaders.map(([n, v]) => [n.toLowerCase(), v]));
      assert.ok(hit.body.equals(body), `${path}: the same bytes`);
      assert.equal(headers['webhook-id'], header(receipt.headers, 'webhook-id'));
      assert.ok(Number(headers['webhook-timestamp']) > storedTs + 3000, `${path}: a fresh timestamp`);
      assert.ok(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 60);
      assert.ok(verifyWith(secret, hit.body.toString(), headers, 'webhook'), `${path}: verifies under its secret`);
      assert.equal(verifyWith(wrong, hit.body.toString(), headers, 'webhook'), false);
      assert.equal(headers['x-trace'], 'first');
    }
    assert.equal((await as('admin', 'GET', `/api/receipts/${receipt.id}`)).body.forwards.length, 2);
  });

  test('to a dead port: the network error is kept as the forward; a reply over 64 KiB is kept cut; a redirect is not followed', async () => {
    const receipt = await ingest(app, cookies.admin, receiverId, slug, Buffer.from('{"dead":true}'));
    const port = await freePort();
    const dead = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: `http://127.0.0.1:${port}/gone`, mode: 'verbatim' });
    assert.equal(dead.status, 201, dead.text);
    assert.equal(dead.body.status, 0);
    assert.match(dead.body.error, /ECONNREFUSED/);
    const big = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/big'), mode: 'verbatim' });
    assert.equal(big.status, 201, big.text);
    assert.equal(big.body.responseTruncated, true);
    assert.equal(big.body.responseSize, 64 * 1024);
    const redirect = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/redirect'), mode: 'verbatim' });
    assert.equal(redirect.body.status, 302, 'a redirect is the reply, not followed');
    assert.equal(recorder.hits.filter((h) => h.path === '/redirected').length, 0);
    const kept = (await as('admin', 'GET', `/api/receipts/${receipt.id}`)).body.forwards;
    assert.deepEqual(
      kept.map((f: { status: number }) => f.status),
      [302, 200, 0],
    );
    assert.match(kept[2].error, /ECONNREFUSED/);
  });

  test('a private address is refused before anything is sent, naming the rule; bad fields name themselves; a viewer gets 403', async () => {
    const receipt = await ingest(app, cookies.admin, receiverId, slug, Buffer.from('{"refused":true}'));
    const before = recorder.hits.length;
    const refused = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, { url: 'http://10.0.0.1:8080/x', mode: 'verbatim' });
    assertProblem(refused, 400, /10\.0\.0\.1 is a private address.*forwards go to public addresses only/);
    assert.equal(refused.body.errors[0].path, 'url');
    for (const [input, field] of [
      [{ url: 'ftp://example.org/x', mode: 'verbatim' }, 'url'],
      [{ url: recorder.url('/x'), mode: 'replay' }, 'mode'],
      [{ url: recorder.url('/x'), mode: 'resign', secret: 'not-a-secret' }, 'secret'],
      [{ mode: 'verbatim' }, 'url'],
    ] as const) {
      const res = await as('operator', 'POST', `/api/receipts/${receipt.id}/forward`, input);
      assertProblem(res, 400);
      assert.ok(res.body.errors?.some((e: { path: string }) => e.path === field) || res.body.detail.includes(field), `${field}: ${res.text}`);
    }
    assertProblem(await as('viewer', 'POST', `/api/receipts/${receipt.id}/forward`, { url: recorder.url('/x'), mode: 'verbatim' }), 403);
    assertProblem(await as('operator', 'POST', '/api/receipts/999999999/forward', { url: recorder.url('/x'), mode: 'verbatim' }), 404);
    assert.equal(recorder.hits.length, before, 'nothing was sent');
    assert.deepEqual((await as('admin', 'GET', `/api/receipts/${receipt.id}`)).body.forwards, [], 'nothing was stored');
  });

  test('with DELIVERY_ALLOW_PRIVATE=false, loopback is refused by address and by name, and nothing is sent', async () => {
    const strict = await startApp({ env: { DELIVERY_ALLOW_PRIVATE: 'false' } });
    try {
      const cookie = await staffCookie(strict);
      const receiver = await call(strict, 'POST', '/api/receivers', { body: { name: 'Strict', secret: SECRET }, headers: { cookie } });
      assert.equal(receiver.status, 201, receiver.text);
      const receipt = await ingest(strict, cookie, receiver.body.id, receiver.body.slug, Buffer.from('{"strict":true}'));
      const before = recorder.hits.length;
      for (const url of [recorder.url('/strict'), recorder.url('/strict').replace('127.0.0.1', 'localhost')]) {
        const res = await call(strict, 'POST', `/api/receipts/${receipt.id}/forward`, { body: { url, mode: 'verbatim' }, headers: { cookie } });
        assertProblem(res, 400, /is a loopback address.*forwards go to public addresses only \(loopback only with DELIVERY_ALLOW_PRIVATE=true\)/);
      }
      assert.equal(recorder.hits.length, before, 'nothing was sent');
    } finally {
      await strict.destroy();
    }
  });
});

describe('retention', () => {
  test('a receipt body purged by age takes its forwards’ reply bodies with it, and cuts the headers they sent', async () => {
    const short = await startApp({ env: { RECEIPT_BODY_RETENTION: '8s' } });
    try {
      const cookie = await staffCookie(short);
      const receiver = await call(short, 'POST', '/api/receivers', { body: { name: 'Short-lived', secret: SECRET }, headers: { cookie } });
      const receipt = await ingest(short, cookie, receiver.body.id, receiver.body.slug, Buffer.from('{"donor":"ada@example.org"}'), { ageSeconds: 0 });
      assert.equal(receipt.verdict, 'valid', 'a valid receipt: no hold keeps its body');
      const sent = await call(short, 'POST', `/api/receipts/${receipt.id}/forward`, {
        body: { url: recorder.url('/short'), mode: 'verbatim' },
        headers: { cookie },
      });
      assert.equal(sent.status, 201, sent.text);
      assert.ok(sent.body.responseBody);
      assert.ok(sent.body.sentHeaders.some(([n]: [string, string]) => n === 'x-quote'));
      const purged = await eventually(
        async () => {
          const r = await call(short, 'GET', `/api/receipts/${receipt.id}`, { headers: { cookie } });
          return r.body.bodyGone && r.body;
        },
        45_000,
        'the receipt body purged',
      );
      const [f] = purged.forwards;
      assert.equal(f.responseBody, null);
      assert.equal(f.responseBodyBase64, null);
      assert.ok(f.bodyPurgedAt, 'the forward says when its reply body went');
      assert.deepEqual(
        f.sentHeaders
          .map(([n]: [string, string]) => n.toLowerCase())
          .filter((n: string) => !['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp'].includes(n)),
        [],
      );
      assert.equal(f.status, 202, 'the skeleton stays');
    } finally {
      await short.destroy();
    }
  });
});

describe('copy as cURL', () => {
  async function runCurl(command: string, original: string, path: string): Promise<THit> {
    assert.ok(command.includes(original), 'the command names the receipt’s own address');
    const before = recorder.hits.length;
    await run('bash', ['-c', command.replace(original, recorder.url(path))], { timeout: 20_000 });
    assert.equal(recorder.hits.length, before + 1);
    return recorder.hits[recorder.hits.length - 1];
  }

  test('the command of a UTF-8 receipt, run by bash, sends the stored bytes and headers in order', async () => {
    const body = Buffer.from('{"a":"it\'s \\"q\\" $HOME `id` \\\\ ü ✓","b":"line\\nbreak"}\r\n\ttab\x01\x7f\n');
    const receipt = await ingest(app, cookies.admin, receiverId, slug, body);
    assert.equal(receipt.curlUtf8, true);
    assert.match(receipt.curl!, /--data-binary \$'/);
    const hit = await runCurl(receipt.curl!, ingestUrl, '/curl-text');
    assert.ok(hit.body.equals(body), `byte-identical body: ${hit.body.toString('hex')} vs ${body.toString('hex')}`);
    const stored = forwardable(receipt.headers);
    for (const [name, value] of stored) assert.equal(header(hit.rawHeaders, name.toLowerCase()), value, name);
    const names = stored.map(([n]) => n.toLowerCase());
    assert.deepEqual(
      hit.rawHeaders.map(([n]) => n.toLowerCase()).filter((n) => names.includes(n)),
      names,
      'headers in the stored order',
    );
    assert.deepEqual(
      hit.rawHeaders
        .map(([n]) => n.toLowerCase())
        .filter((n) => !names.includes(n))
        .sort(),
      ['content-length', 'host'],
      'curl adds nothing else',
    );
  });

  test('an attempt’s command (a timeline row’s JSON) sends the payload as the service did, signed so that it verifies', async () => {
    const tok = await token(app, SANDBOX_CLIENT); // the console's client: the console sees its webhooks
    const webhook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ingestUrl, eventTypes: ['grant.succeeded'], secret: SECRET } });
    assert.equal(webhook.status, 201, webhook.text);
    const messageId = await sendTest(app, tok, webhook.body.id);
    const message = await messageWhen(app, tok, webhook.body.id, messageId, 'success');
    const url = `/api/webhooks/${webhook.body.id}/messages/${messageId}`;
    const detail = await eventually(
      async () => {
        const r = await as('operator', 'GET', url);
        return r.body.events?.some((e: { kind: string }) => e.kind === 'receipt') && r.body;
      },
      15_000,
      'the receipt joined to the message',
    );
    const attemptId = detail.attempts[0].id;
    const command: string = detail.curls.attempts[attemptId].command;
    assert.ok(command.includes(ingestUrl));
    assert.ok(Object.keys(detail.curls.receipts).length >= 1, 'its receipts have commands too');
    const hit = await runCurl(command, ingestUrl, '/curl-attempt');
    const headers = Object.fromEntries(hit.rawHeaders.map(([n, v]) => [n.toLowerCase(), v]));
    assert.equal(hit.body.toString('utf8'), JSON.stringify(message.payload));
    assert.equal(headers['webhook-id'], messageId);
    assert.equal(headers['user-agent'], 'GivingConnect-Webhooks/1.0');
    assert.equal(Number(headers['webhook-timestamp']), Math.floor(Date.parse(detail.attempts[0].timestamp) / 1000), 'signed at the attempt’s time');
    assert.ok(verifyWith(SECRET, hit.body.toString(), headers, 'webhook'));
    assert.ok(verifyWith(SECRET, hit.body.toString(), headers, 'svix'));
    assert.equal((await as('viewer', 'GET', url)).body.curls, null, 'a viewer gets no command');
  });

  test('a body that is not UTF-8 comes from base64, with a note; a viewer gets no command', async () => {
    const body = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0x80, 0x27]);
    const receipt = await ingest(app, cookies.admin, receiverId, slug, body);
    assert.equal(receipt.curlUtf8, false);
    assert.match(receipt.curl!, /^# The body is not UTF-8/);
    assert.match(receipt.curl!, /base64 -d/);
    const hit = await runCurl(receipt.curl!, ingestUrl, '/curl-binary');
    assert.ok(hit.body.equals(body), 'byte-identical body');
    const seen = await as('viewer', 'GET', `/api/receipts/${receipt.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.curl, null);
    const page = await as('viewer', 'GET', `/receipts/${receipt.id}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /Copy as cURL/);
    assert.doesNotMatch(page.text, /data-testid="forward-form"/);
    assert.match((await as('operator', 'GET', `/receipts/${receipt.id}`)).text, /Copy as cURL/);
  });
});
