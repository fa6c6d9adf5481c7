#!/usr/bin/env node
// Serves the production build: Next's request handler behind our own node:http server, which
// (1) sets X-Forwarded-For to the real peer address — Next only fills it when absent, so a client
// could otherwise choose its own source address (TRUST_PROXY=true keeps a proxy's chain and appends
// the peer), (2) serves the receiver (/ingest/{slug}) itself, through the hook the app registers at
// boot (lib/console/ingest/ingest-node.ts): its hot path skips Next's pipeline and sees the headers exactly
// as they arrived, and a plain POST /v1/grants through the hook lib/service/grants/grant-fast-path.ts
// registers (the route's own handler without Next's pipeline), (3) refuses what Next cannot handle well — see lib/http/front-door.ts; a body too
// large is answered at once, then read and dropped within bounds so the client reads the answer (a
// lingering close) — (4) bounds slow and stuck clients: headers and whole requests that take too
// long get a 408, idle keep-alive connections close, and one address may hold only so many
// connections (the HTTP_* settings), and (5) answers only to the host names the deployment gives
// (lib/http/request-guard.ts) and, with no HOST, only on loopback.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import next from 'next';

// Same name as INGEST_HOOK in lib/console/ingest/ingest-node.ts.
const INGEST_HOOK = '__gcIngestHook';
// Same name as API_HOOK in lib/service/grants/grant-fast-path.ts: answers true when it took the request.
const API_HOOK = '__gcApiHook';

// The old generation may grow to 1.5× what survived the last full collection before the next one
// (V8 lets it reach up to 4× when collections are cheap, as they are here: a 100k-line export then
// grew the RSS by 150–230 MiB of garbage — pages of rows that outlive two scavenges, and strings
// too large for the young generation). Costs a full collection every ~40 MB promoted, ~1 % of a
// core during an export. Set before the heap grows; a --heap-growing-percent of the caller wins.
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent') || a.startsWith('--heap_growing_percent')))
  v8.setFlagsFromString('--heap-growing-percent=50');

const root = path.resolve(import.meta.dirname, '..');

/**
 * scripts/server-deps.ts, compiled once per build into the build's folder (server-deps-<build id>.mjs,
 * written whole or not at all, so starts side by side never read half a file); through tsx when
 * there is no build id yet or esbuild cannot compile it.
 */
async function serverDeps() {
  const dist = path.resolve(root, process.env.NEXT_DIST_DIR || '.next');
  let buildId = '';
  try {
    buildId = fs.readFileSync(path.join(dist, 'BUILD_ID'), 'utf8').trim();
  } catch {
    /* not built: Next says so below */
  }
  const compiled = buildId && /^[\w-]+$/.test(buildId) ? path.join(dist, `server-deps-${buildId}.mjs`) : '';
  if (compiled && !fs.existsSync(compiled)) {
    const partial = `${compiled}.${process.pid}.tmp`;
    try {
      const { build } = await import('esbuild');
      await build({
        entryPoints: [path.join(root, 'scripts/server-deps.ts')],
        outfile: partial,
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        tsconfig: path.join(root, 'tsconfig.json'),
        logLevel: 'silent',
      });
      fs.renameSync(partial, compiled);
    } catch {
      fs.rmSync(partial, { force: true });
    }
  }
  if (compiled && fs.existsSync(compiled)) return import(pathToFileURL(compiled).href);
  const { tsImport } = await import('tsx/esm/api');
  const deps = await tsImport('./server-deps.ts', import.meta.url);
  // tsx turned source maps on for those imports; as under `next start`, the app's own stack traces
  // stay unmapped — mapping made Node read the map of every chunk the server loads, at each start.
  process.setSourceMapsEnabled(false);
  return deps;
}

// Settings come from lib/env.ts like everywhere else (after the .env files, as Next loads them):
// a bad value ends the process with one line naming it.
const { env, MAX_BODY_BYTES, refusal, hostRefusal, everyAnswer, startTracing, serveInSpan } = await serverDeps();
// OpenTelemetry, when an OTLP endpoint is set (lib/telemetry): before Next, so its spans are exported too.
const tracing = await startTracing('giving-connect-console');
if (tracing) console.log(tracing);
const { PORT: port, HOST: host, TRUST_PROXY: trustProxy, HTTP_MAX_CONNECTIONS_PER_ADDRESS: maxPerAddress } = env;

const app = next({ dev: false, dir: root, port, hostname: host ?? 'localhost' });
const handle = app.getRequestHandler();
await app.prepare();

/**
 * How much of a refused body is read and dropped after the answer went out, and for how long at
 * most, before the connection closes (a lingering close, as Apache's and nginx's).
 */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * Sends a front-door refusal. A small body is read (and dropped) first, so the client, still
 * sending it, reads the answer instead of a reset. Past the limit the answer goes at once, with
 * Connection: close, and the connection lingers: closing it while the client still writes would
 * make its next write fail (EPIPE, a reset) before it reads the answer.
 */
function answerRefusal(req, res, refused) {
  let sent = false;
  const answer = (close) => {
    if (sent) return;
    sent = true;
    const body = req.method === 'HEAD' ? '' : refused.body;
    res.writeHead(refused.status, { ...refused.headers, 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
    if (!close) return res.end(body);
    res.write(body);
    linger(req, res);
  };
  req.on('error', () => {});
  if (refused.close) return answer(true);
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) answer(true);
  });
  req.on('end', () => answer(false));
}

/**
 * The answer is out (all of it: its length was declared); the rest of the body is read and dropped
 * and the response ended once it is in, so the connection closes after the client stopped
 * writing. A client that sends more than LINGER_BYTES, or takes longer than LINGER_MS, is cut off.
 */
function linger(req, res) {
  let dropped = 0;
  const close = (cutOff) => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
    if (cutOff) req.socket.destroy();
  };
  const timer = setTimeout(() => close(true), LINGER_MS);
  timer.unref();
  req.on('data', (chunk) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close(true);
  });
  req.on('end', () => close(false));
  req.on('close', () => close(false));
  req.resume();
}

function serve(req, res) {
  // nosniff and Referrer-Policy on every answer: the receiver's, the refusals', Next's (lib/http/safety-headers.ts).
  for (const [name, value] of Object.entries(everyAnswer(req.url ?? '/'))) res.setHeader(name, value);
  // A name the deployment does not give (DNS rebinding) is refused here, ahead of the API's fast
  // path and Next; the receivers and the probes answer any (lib/http/request-guard.ts).
  const refused = refusal(req) ?? hostRefusal(req);
  if (refused) {
    answerRefusal(req, res, refused);
    return;
  }
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  const forwardedFor = trustProxy && forwarded ? `${forwarded}, ${peer}` : peer;
  const ingest = globalThis[INGEST_HOOK];
  if (ingest && req.url?.startsWith('/ingest/')) return ingest(req, res, forwardedFor);
  if (globalThis[API_HOOK]?.(req, res, forwardedFor)) return;
  req.headers['x-forwarded-for'] = forwardedFor;
  handle(req, res);
}

const serverOptions = {
  headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
  requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
  keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  // How often those timeouts are checked (Node's default, 30 s, would let a slow client stay that much longer).
  connectionsCheckingInterval: 1000,
};

// Connections open at once per source address, and the refusal of one over the limit. Behind a
// proxy (TRUST_PROXY) every connection comes from the proxy: no limit then.
const perAddressLimit = trustProxy ? 0 : maxPerAddress;
const openByAddress = new Map();
function refuseConnection(socket, address) {
  const status = 429;
  const body = JSON.stringify({
    type: 'about:blank',
    title: http.STATUS_CODES[status],
    status,
    detail: `Too many open connections from ${address}: the limit is ${maxPerAddress} at once.`,
  });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `retry-after: 1\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
}
function onConnection(socket) {
  if (!perAddressLimit) return;
  const address = socket.remoteAddress ?? '';
  const open = (openByAddress.get(address) ?? 0) + 1;
  if (open > perAddressLimit) return refuseConnection(socket, address);
  openByAddress.set(address, open);
  socket.once('close', () => {
    const left = (openByAddress.get(address) ?? 1) - 1;
    if (left > 0) openByAddress.set(address, left);
    else openByAddress.delete(address);
  });
}

// What Node's HTTP parser refuses never reaches the handler; its default answer is a bare 400.
const PARSE_ERRORS = {
  HPE_INVALID_METHOD: [400, 'The method is not one HTTP/1.1 servers know; this API uses GET, POST, PATCH, DELETE and OPTIONS.'],
  HPE_INVALID_HEADER_TOKEN: [400, 'A header holds a character HTTP does not allow (a NUL or another control character).'],
  HPE_INVALID_HEADER_VALUE: [400, 'A header holds a character HTTP does not allow (a NUL or another control character).'],
  HPE_INVALID_URL: [400, 'The request target is not a valid path.'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};
function onClientError(err, socket) {
  if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
  const [status, detail] = PARSE_ERRORS[err.code] ?? [400, 'The request could not be read as HTTP/1.1.'];
  const body = JSON.stringify({ type: 'about:blank', title: http.STATUS_CODES[status], status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

// With no HOST, loopback only: IPv4 and IPv6, so http://localhost:PORT works whichever of the two a
// browser or curl picks (a server listens on one address; ::1 is skipped where there is no IPv6).
// An install is reachable from other machines only when HOST says so (HOST=0.0.0.0 or :: for all
// interfaces, behind a TLS proxy, or one address of this machine).
const addresses = host ? [host] : ['127.0.0.1', '::1'];
const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);
const listening = [];
for (const address of addresses) {
  const server = http.createServer(serverOptions, tracing ? (req, res) => serveInSpan(req, res, () => serve(req, res)) : serve);
  server.on('connection', onConnection);
  server.on('clientError', onClientError);
  const failed = await new Promise((resolve) => {
    server.once('error', resolve);
    server.listen(port, address, () => {
      server.off('error', resolve);
      resolve(null);
    });
  });
  if (!failed) {
    listening.push(address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`);
    continue;
  }
  if (failed.code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use${host ? '' : ` on ${address}`}: stop what runs there, or start with PORT=<another port>.`);
    process.exit(1);
  }
  if (!host && address === '::1' && NO_IPV6.has(failed.code)) continue;
  throw failed;
}
console.log(
  `▲ Next.js ${app.version ?? ''} listening on ${listening.join(' and ')}` +
    (host ? '' : `: this machine only (open http://localhost:${port}); to serve others, behind a TLS proxy, set HOST=0.0.0.0`),
);
