// `npm run bench`: throughput of the hot paths, each printed beside a baseline measured in the same
// process (a bare node:http server answering the same requests), so the ratios mean something on
// any machine. Starts the built app (run `npm run build` or `npm test` first) on an embedded store,
// or on PostgreSQL with TEST_DATABASE_URL. Every loop is bounded in count and time, loopback only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { Webhook } from 'standardwebhooks';
import { startApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';

const N_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const N_DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 300);
const CONCURRENCY = 16;
const SECRET = `whsec_${Buffer.from('bench-secret-bench-secret-bench!').toString('base64')}`;

type TResult = { name: string; count: number; seconds: number; perSecond: number };
const results: TResult[] = [];

function record(name: string, count: number, seconds: number): TResult {
  const r = { name, count, seconds, perSecond: count / seconds };
  results.push(r);
  console.log(`  ${name.padEnd(46)} ${String(count).padStart(6)} in ${seconds.toFixed(2).padStart(6)} s = ${r.perSecond.toFixed(0).padStart(6)}/s`);
  return r;
}

/** `count` requests from `make(i)`, `CONCURRENCY` at a time, over one keep-alive pool. */
async function blast(origin: string, count: number, make: (i: number) => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }): Promise<{ seconds: number; statuses: Map<number, number> }> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const statuses = new Map<number, number>();
  let next = 0;
  const t0 = performance.now();
  const deadline = Date.now() + 120_000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count && Date.now() < deadline) {
        const i = next++;
        const res = await pool.request(make(i));
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { seconds, statuses };
}

function signedBody(i: number) {
  const body = JSON.stringify({ type: 'grant.succeeded', timestamp: new Date().toISOString(), data: { id: `bench-${i}`, amount: 15000, note: 'x'.repeat(600) } });
  const id = `msg_bench_${i}_${Math.random().toString(36).slice(2)}`;
  const ts = new Date();
  const signature = new Webhook(SECRET).sign(id, ts, body);
  return { body, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': signature } };
}

async function main() {
  console.log(`Giving Connect bench — ${N_REQUESTS} requests per HTTP figure, ${N_DELIVERIES} deliveries, concurrency ${CONCURRENCY}`);
  console.log(`store: ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}\n`);

  // Baseline: a bare node:http server that reads the body and answers 204, plus a counting sink for deliveries.
  let sinkCount = 0;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/sink')) sinkCount++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const sinkOrigin = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

  console.log('baseline');
  const base = await blast(sinkOrigin, N_REQUESTS, (i) => ({ method: 'POST', path: '/base', ...signedBody(i) }));
  const baseline = record('bare node:http POST (same payloads)', N_REQUESTS, base.seconds);

  const app = await startApp({ env: { DELIVERY_POLL_MS: '200', DELIVERY_RETRY_SCHEDULE: '5,300,1800,7200,18000,36000,36000' } });
  try {
    // Staff session and a receiver with a signing secret.
    const cookie = await staffCookie(app);
    const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench', secret: SECRET }, headers: { cookie } });
    if (rcv.status !== 201) throw new Error(`receiver: ${rcv.status} ${rcv.text}`);

    console.log('\nreceiver (/ingest/{slug}: verify signature, one durable insert, answer)');
    const ingest = await blast(app.baseUrl, N_REQUESTS, (i) => ({ method: 'POST', path: `/ingest/${rcv.body.slug}`, ...signedBody(i) }));
    const ingestR = record('signed POST stored before 2xx', N_REQUESTS, ingest.seconds);
    console.log(`  statuses ${JSON.stringify(Object.fromEntries(ingest.statuses))}`);

    console.log('\nservice API');
    const t0 = performance.now();
    const T = 20;
    for (let i = 0; i < T; i++) await token(app);
    record('token exchanges (scrypt-checked secret, RS256)', T, (performance.now() - t0) / 1000);
    const bearer = await token(app);
    const np = await call(app, 'POST', '/v1/nonprofits', { token: bearer, body: { ein: '530196605', user: { email: 'bench@example.org' } } });
    const reads = await blast(app.baseUrl, N_REQUESTS, () => ({ method: 'GET', path: `/v1/nonprofit/${np.body.ein}`, headers: { authorization: `Bearer ${bearer}` } }));
    const readR = record('GET /v1/nonprofit/{ein} (JWT verified)', N_REQUESTS, reads.seconds);

    console.log('\ndelivery (test events → worker → signed POST → bare receiver)');
    const hook = await call(app, 'POST', '/v1/webhooks', { token: bearer, body: { url: `${sinkOrigin}/sink`, eventTypes: ['grant.succeeded'] } });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`);
    const d0 = performance.now();
    const fire = await blast(app.baseUrl, N_DELIVERIES, () => ({ method: 'POST', path: `/v1/webhooks/${hook.body.id}/test`, headers: { authorization: `Bearer ${bearer}` } }));
    await eventually(async () => sinkCount >= N_DELIVERIES, 180_000, 'all deliveries');
    const deliverySeconds = (performance.now() - d0) / 1000;
    record('POST /test (message + queued delivery)', N_DELIVERIES, fire.seconds);
    const deliveryR = record('end to end: fired → received by the sink', N_DELIVERIES, deliverySeconds);

    console.log('\ntimeline (staff JSON the live page polls: messages + attempts + receipts)');
    const pageTimes: number[] = [];
    let pageToken: string | undefined;
    for (let p = 0; p < 10; p++) {
      const t = performance.now();
      const res = await call(app, 'GET', `/api/webhooks/${hook.body.id}/timeline${pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : ''}`, { headers: { cookie } });
      pageTimes.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`timeline: ${res.status} ${res.text}`);
      pageToken = res.body.nextPageToken;
      if (!pageToken) break;
    }
    console.log(`  ${N_DELIVERIES} messages: page 1 ${pageTimes[0].toFixed(0)} ms, page ${pageTimes.length} ${pageTimes[pageTimes.length - 1].toFixed(0)} ms, median ${[...pageTimes].sort((a, b) => a - b)[Math.floor(pageTimes.length / 2)].toFixed(0)} ms`);

    console.log('\nratios to the bare node:http baseline');
    for (const r of [ingestR, readR, deliveryR]) console.log(`  ${r.name.padEnd(46)} ${(r.perSecond / baseline.perSecond).toFixed(3)}×`);
  } finally {
    await app.stop();
    sink.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
