#!/usr/bin/env node
// Serves the production build: Next's request handler behind our own node:http server, which
// (1) sets X-Forwarded-For to the real peer address — Next only fills it when absent, so a client
// could otherwise choose its own source address (TRUST_PROXY=true keeps a proxy's chain and appends
// the peer), and (2) hands the receiver the request's headers exactly as they arrived (names, case,
// order, repeats), before Next adds its x-forwarded-* headers.
import http from 'node:http';
import path from 'node:path';
import next from 'next';

// Same name as RAW_HEADERS_HEADER in lib/constants.ts.
const RAW_HEADERS = 'x-gc-raw-headers';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;
const trustProxy = ['true', '1', 'yes'].includes((process.env.TRUST_PROXY || '').toLowerCase());

const app = next({ dev: false, dir: root, port, hostname: host ?? 'localhost' });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = trustProxy && forwarded ? `${forwarded}, ${peer}` : peer;
  if (req.url?.startsWith('/ingest/')) {
    const pairs = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i].toLowerCase() !== RAW_HEADERS) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    }
    req.headers[RAW_HEADERS] = encodeURIComponent(JSON.stringify(pairs));
  } else {
    delete req.headers[RAW_HEADERS];
  }
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.on('error', (err) => {
  if (err.code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use: stop what runs there, or start with PORT=<another port>.`);
    process.exit(1);
  }
  throw err;
});
server.listen(port, host, () => console.log(`▲ Next.js ${app.version ?? ''} listening on http://${host ?? 'localhost'}:${port}`));
