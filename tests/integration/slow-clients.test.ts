// Own app: tight HTTP timeouts and a per-address connection cap, which would refuse other files' requests.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { startApp } from '../helpers/app';
import { call, sleep, staffCookie, token } from '../helpers/http';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// Slow and stuck clients (scripts/server.mjs, the HTTP_* settings): a slowloris sending its headers
// a byte a second, or a body that never ends, gets a 408 and a closed socket within the configured
// time; one address holding too many connections is refused with a 429; and a body refused as too
// large still gets its 413, without a reset, to a client that is still sending it (Node reads and
// drops the rest after the answer; this guards it).

const HEADERS_MS = 3000;
const REQUEST_MS = 5000;
const MAX_PER_ADDRESS = 12;
// Node checks the timeouts once a second (connectionsCheckingInterval) on the app's event loop, which
// a loaded 2-core machine can hold up for seconds: the close may come that much late. The drips
// below last 68 s and 100 s, so a close this early is the timeout, never the client finishing.
const LATE_MS = 10_000;

let app: Awaited<ReturnType<typeof startApp>>;
before(async () => {
  app = await startApp({
    env: {
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_PER_ADDRESS),
    },
  });
});
after(() => app?.destroy());

/** Opens a socket, writes `head` at once, then `drip` a byte a second; resolves with what came back and when the socket closed. */
function trickle(head: string, drip: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(app.port, '127.0.0.1');
    let answer = '';
    let i = 0;
    const timer = setInterval(() => {
      if (socket.writable && i < drip.length) socket.write(drip[i++]);
    }, 1000);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`still open after 30 s; got ${JSON.stringify(answer)}`));
    }, 30_000).unref();
  });
}

test('headers sent a byte a second: a 408 and the socket closed within HTTP_HEADERS_TIMEOUT_MS', async () => {
  const { answer, ms } = await trickle('GET /api/health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: ' + 'a'.repeat(60));
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.match(answer, /application\/problem\+json/);
  assert.ok(ms >= HEADERS_MS - 200 && ms < HEADERS_MS + LATE_MS, `closed after ${ms} ms (headers timeout ${HEADERS_MS} ms)`);
});

test('a body that never ends: a 408 and the socket closed within HTTP_REQUEST_TIMEOUT_MS', async () => {
  // A receiver reads the whole body before it answers.
  const receiver = await call(app, 'POST', '/api/receivers', { body: { name: 'slow' }, headers: { cookie: await staffCookie(app) } });
  const { answer, ms } = await trickle(
    `POST /ingest/${receiver.body.slug} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n`,
    'b'.repeat(100),
  );
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.ok(ms >= REQUEST_MS - 200 && ms < REQUEST_MS + LATE_MS, `closed after ${ms} ms (request timeout ${REQUEST_MS} ms)`);
});

test('a normal client is served while slow ones hold their sockets', async () => {
  let slowClosed = 0;
  const slow = Array.from({ length: 4 }, () => trickle('GET /api/health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: aaaaaaaaaa').finally(() => slowClosed++));
  await sleep(300);
  for (let i = 0; i < 5; i++) assert.equal((await call(app, 'GET', '/api/health')).status, 200);
  assert.equal(slowClosed, 0, 'served before the slow ones were even timed out');
  await Promise.all(slow);
});

test(`more than HTTP_MAX_CONNECTIONS_PER_ADDRESS (${MAX_PER_ADDRESS}) connections from one address: the next is refused with a 429`, async () => {
  const held: net.Socket[] = [];
  try {
    for (let i = 0; i < MAX_PER_ADDRESS; i++) {
      const s = net.connect(app.port, '127.0.0.1');
      s.on('error', () => {});
      await new Promise((r) => s.once('connect', r));
      held.push(s);
    }
    await sleep(200);
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(app.port, '127.0.0.1');
      let answer = '';
      s.on('connect', () => s.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'));
      s.on('data', (d) => (answer += d));
      s.on('error', () => {});
      s.on('close', () => resolve(answer));
    });
    assert.match(refused, /^HTTP\/1\.1 429 /);
    assert.match(refused, /Too many open connections from 127\.0\.0\.1/);
  } finally {
    for (const s of held) s.destroy();
  }
  await sleep(300);
  assert.equal((await call(app, 'GET', '/api/health')).status, 200, 'served again once they closed');
});

test('a 2 MiB POST refused as too large gets its 413, not a reset, while it is still being sent', async () => {
  const tok = await token(app);
  const hook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['grant.succeeded'] } });
  // Sent in 64 KiB pieces, 10 ms apart: still sending when the server has decided.
  const piece = Buffer.alloc(64 * 1024, 'a');
  const pieces = 32;
  const { status, error } = await new Promise<{ status: number; error: string | null }>((resolve) => {
    let status = 0;
    let error: string | null = null;
    let finished = false;
    const done = () => status && (finished || error) && resolve({ status, error });
    const req = http.request(`${app.baseUrl}/v1/webhooks/${hook.body.id}/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json', 'content-length': piece.length * pieces },
    });
    req.on('response', (res) => {
      res.resume();
      status = res.statusCode ?? 0;
      done();
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
      if (!status) resolve({ status, error });
      done();
    });
    req.on('finish', () => {
      finished = true;
      done();
    });
    (async () => {
      for (let i = 0; i < pieces && !error; i++) {
        req.write(piece);
        await sleep(10);
      }
      req.end();
    })();
  });
  assert.equal(error, null, 'the whole body was sent without a reset');
  assert.equal(status, 413);
});
