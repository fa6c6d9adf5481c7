// `npm run soak`: the fault scenarios of issue 22 against the built app (`npm run build` first),
// one PASS/FAIL line per check with its figures, exit 1 on any FAIL:
//   outage     a scale-out deployment (2 web, WORKER_IN_PROCESS=false, 1 `npm run worker`) on a
//              PostgreSQL of its own (initdb + pg_ctl), stopped for SOAK_OUTAGE_MS under ingest and
//              grant load (skipped without PostgreSQL server binaries)
//   flapping   a receiver that flips between 200 and 500 every second: every message delivered
//   slowloris  SOAK_SLOW_SOCKETS sockets sending headers a byte a second beside a normal client
//   soak       ingest at SOAK_RATE requests/s for SOAK_SECONDS, the app's RSS each SOAK_SECONDS/5
// SOAK_SCENARIOS=outage,flapping,… picks some. Loopback only; everything it starts is stopped.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { freePort, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { postgresBinDir, startScratchPostgres } from '../helpers/scratch-postgres';
import { cleanUpOnSignals, onCleanup, runCleanups } from './cleanup';
import { rssMiB } from './stats';

const ROOT = path.resolve(import.meta.dirname, '../..');
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SCENARIOS = (process.env.SOAK_SCENARIOS ?? 'outage,flapping,slowloris,soak').split(',');
const OUTAGE_MS = num('SOAK_OUTAGE_MS', 10_000);
const SLOW_SOCKETS = num('SOAK_SLOW_SOCKETS', 200);
const SOAK_SECONDS = num('SOAK_SECONDS', 300);
const SOAK_RATE = num('SOAK_RATE', 300);

let failures = 0;
function check(name: string, ok: boolean, figures: string): void {
  if (!ok) failures++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${figures}`);
}
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? NaN;

async function connectOf(app: TApp, tok: string): Promise<string> {
  const np = await call(app, 'POST', '/v1/nonprofits', {
    token: tok,
    body: { ein: `47${String(Date.now()).slice(-7)}`, name: 'Soak Food Bank', user: { email: 'ed@example.org' } },
  });
  const connect = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  return (await call(app, 'GET', `/v1/connects/${connect.body.id}`, { token: tok })).body.apiKey;
}

const grantBody = JSON.stringify({ amount: 2500, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' });

async function outage(): Promise<void> {
  const bin = postgresBinDir();
  if (!bin) return console.log('SKIP outage: no PostgreSQL server binaries (initdb, pg_ctl)');
  const server = await startScratchPostgres(bin);
  onCleanup(() => server.destroy());
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: server.url() });
  await admin.connect();
  await admin.query('create database gc_bench_outage');
  await admin.end();
  // One deployment: one token issuer for both web processes.
  const env = { DATABASE_URL: server.url('gc_bench_outage'), WORKER_IN_PROCESS: 'false', DELIVERY_POLL_MS: '10000', TOKEN_ISSUER: 'http://gc-soak.test/' };
  const webs = [await startApp({ env }), await startApp({ env })];
  for (const w of webs) onCleanup(() => w.stop());
  const healthPort = await freePort();
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...webs[0].env, DELIVERY_POLL_MS: '10000', WORKER_HEALTH_PORT: String(healthPort), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.resume();
  worker.stderr!.resume();
  onCleanup(async () => void worker.kill('SIGKILL'));
  const receiver = await startReceiver();
  onCleanup(() => receiver.close());
  const [web] = webs;
  const tok = await token(web);
  const apiKey = await connectOf(web, tok);
  const endpoints = [receiver.endpoint(), receiver.endpoint(), receiver.endpoint()];
  for (const ep of endpoints) await call(web, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
  const delivered = (id: string) => endpoints.every((ep) => ep.requests().some((r) => r.body.includes(`"id":"${id}"`)));
  const slug = (await call(web, 'POST', '/api/receivers', { body: { name: 'soak' }, headers: { cookie: await staffCookie(web) } })).body.slug;
  const ready = async (url: string) => (await fetch(url).catch(() => null))?.status;
  const readyUrls = [...webs.map((w) => `${w.baseUrl}/api/ready`), `http://127.0.0.1:${healthPort}/ready`];
  await eventually(async () => (await Promise.all(readyUrls.map(ready))).every((s) => s === 200), 30_000, 'all ready');

  const acked = { receipts: new Set<number>(), grants: new Set<string>() };
  const refusedLatency: number[] = [];
  const unexpected: string[] = [];
  let loading = true;
  // Sent again after a 503 or no answer, as a sender would; any other answer is counted and dropped.
  const untilAcked = async (send: () => Promise<Response>, onAck: (res: Response) => Promise<void>) => {
    for (;;) {
      const t0 = performance.now();
      const res = await send().catch(() => null);
      if (res && res.status < 300) return onAck(res);
      if (res && res.status !== 503) return void unexpected.push(`${res.status} ${(await res.text()).slice(0, 200)}`);
      if (res?.status === 503) refusedLatency.push(performance.now() - t0);
      await res?.body?.cancel().catch(() => {});
      await sleep(100);
    }
  };
  const ingestLoop = async (n: number) => {
    for (let i = 0; loading; i++) {
      const web = webs[i % 2];
      await untilAcked(
        () => fetch(`${web.baseUrl}/ingest/${slug}`, { method: 'POST', body: JSON.stringify({ n, i }) }),
        async (res) => {
          acked.receipts.add(Number(res.headers.get('x-receipt-id')));
          await res.body?.cancel();
        },
      );
    }
  };
  const grantLoop = async () => {
    for (let i = 0; loading; i++) {
      const key = randomUUID();
      await untilAcked(
        () =>
          fetch(`${webs[i % 2].baseUrl}/v1/grants`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': key },
            body: grantBody,
          }),
        async (res) => void acked.grants.add((await res.json()).id),
      );
      await sleep(200);
    }
  };
  const load = Promise.all([...Array.from({ length: 16 }, (_, n) => ingestLoop(n)), grantLoop()]);
  await sleep(5000);
  await server.stop();
  const stoppedAt = Date.now();
  let sawNotReady = false;
  while (Date.now() - stoppedAt < OUTAGE_MS) {
    if ((await Promise.all(readyUrls.map(ready))).every((s) => s === 503)) sawNotReady = true;
    await sleep(500);
  }
  const aliveDuring = webs.every((w) => w.pid() && rssMiB(w.pid()) !== null) && worker.exitCode === null;
  await server.start();
  const restarted = Date.now();
  await eventually(async () => (await Promise.all(readyUrls.map(ready))).every((s) => s === 200), 30_000, 'ready again');
  const readyAfter = Date.now() - restarted;
  await sleep(5000);
  loading = false;
  await load;
  check(
    'outage: no process exited',
    aliveDuring && worker.exitCode === null && webs.every((w) => rssMiB(w.pid()) !== null),
    `2 web + 1 worker running through a ${OUTAGE_MS / 1000} s stop`,
  );
  check('outage: readiness', sawNotReady, `503 on all three during the stop, 200 again ${readyAfter} ms after PostgreSQL started`);
  check(
    'outage: refusals',
    refusedLatency.length > 0 && p99(refusedLatency) < 2000 && unexpected.length === 0,
    `${refusedLatency.length} requests refused with 503, p99 ${p99(refusedLatency).toFixed(0)} ms; other answers: ${unexpected.length}${unexpected.length ? ` (${unexpected[0]})` : ''}`,
  );
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const stored = (await client.query('select count(*)::int as n from console.receipts where id = any($1::bigint[])', [[...acked.receipts]])).rows[0].n;
  await client.end();
  check('outage: receipts kept', stored === acked.receipts.size, `${stored} of ${acked.receipts.size} acknowledged receipts stored`);
  const t0 = Date.now();
  await eventually(async () => [...acked.grants].every(delivered), 60_000, 'grants delivered').catch(() => {});
  const missing = [...acked.grants].filter((id) => !delivered(id)).length;
  check(
    'outage: grants delivered',
    missing === 0,
    `${acked.grants.size - missing} of ${acked.grants.size} acknowledged grants at all 3 webhooks (${Date.now() - t0} ms after the load)`,
  );
  const started = Date.now();
  const res = await fetch(`${web.baseUrl}/v1/grants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json' },
    body: grantBody,
  });
  const id = (await res.json()).id;
  await eventually(async () => delivered(id), 15_000, 'a grant after recovery').catch(() => {});
  const ms = Date.now() - started;
  check('outage: LISTEN reconnected', delivered(id) && ms < 2000, `a grant after recovery delivered in ${ms} ms (fallback poll 10 s)`);
}

async function flapping(): Promise<void> {
  const app = await startApp();
  onCleanup(() => app.destroy());
  const receiver = await startReceiver();
  onCleanup(() => receiver.close());
  const ep = receiver.endpoint(() => ({ status: Math.floor(Date.now() / 1000) % 2 === 0 ? 200 : 500 }));
  const tok = await token(app);
  const apiKey = await connectOf(app, tok);
  await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
  const ids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${app.baseUrl}/v1/grants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json' },
      body: grantBody,
    });
    ids.push((await res.json()).id);
    await sleep(30);
  }
  const ok = (id: string) => ep.requests().some((r) => r.body.includes(`"id":"${id}"`) && Math.floor(r.at / 1000) % 2 === 0);
  const started = Date.now();
  await eventually(async () => ids.every(ok), 90_000, 'every grant acknowledged').catch(() => {});
  const lost = ids.filter((id) => !ok(id)).length;
  check(
    'flapping receiver',
    lost === 0,
    `${ids.length - lost} of ${ids.length} grants acknowledged by a receiver flipping 200/500 each second, ${ep.requests().length} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function slowloris(): Promise<void> {
  const app = await startApp({ env: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(SLOW_SOCKETS + 50) } });
  onCleanup(() => app.destroy());
  const sockets: net.Socket[] = [];
  let closedAt: number[] = [];
  const opened = Date.now();
  for (let i = 0; i < SLOW_SOCKETS; i++) {
    const s = net.connect(app.port, '127.0.0.1', () => s.write('GET /api/health HTTP/1.1\r\nHost: x\r\n'));
    s.on('error', () => {});
    s.on('data', () => {});
    s.on('close', () => closedAt.push(Date.now() - opened));
    sockets.push(s);
  }
  const drip = setInterval(() => sockets.forEach((s) => s.writable && s.write('a')), 1000);
  onCleanup(async () => {
    clearInterval(drip);
    sockets.forEach((s) => s.destroy());
  });
  await sleep(1000);
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await (await fetch(`${app.baseUrl}/api/health`)).text();
    latencies.push(performance.now() - t0);
  }
  await sleep(12_000);
  clearInterval(drip);
  check('slowloris: normal client', p99(latencies) < 100, `p99 ${p99(latencies).toFixed(1)} ms over 200 requests beside ${SLOW_SOCKETS} slow sockets`);
  check(
    'slowloris: slow sockets closed',
    closedAt.length === SLOW_SOCKETS && Math.max(...closedAt) < 13_000,
    `${closedAt.length} of ${SLOW_SOCKETS} closed, the last after ${Math.max(...closedAt)} ms (HTTP_HEADERS_TIMEOUT_MS 10 s)`,
  );
  closedAt = [];
}

async function soak(): Promise<void> {
  const app = await startApp();
  onCleanup(() => app.destroy());
  const slug = (await call(app, 'POST', '/api/receivers', { body: { name: 'soak' }, headers: { cookie: await staffCookie(app) } })).body.slug;
  // 64 keep-alive connections, as a sender's pool would hold (one address: within HTTP_MAX_CONNECTIONS_PER_ADDRESS).
  const pool = new Pool(app.baseUrl, { connections: 64 });
  onCleanup(() => pool.close());
  const statuses: Record<number, number> = {};
  const samples: number[] = [rssMiB(app.pid()) ?? NaN];
  const every = (SOAK_SECONDS * 1000) / 5;
  const started = Date.now();
  let sent = 0;
  let ok = 0;
  let nextSample = started + every;
  while (Date.now() - started < SOAK_SECONDS * 1000) {
    const second = Date.now();
    const batch = await Promise.all(
      Array.from({ length: SOAK_RATE }, (_, i) =>
        pool.request({ method: 'POST', path: `/ingest/${slug}`, body: `{"i":${sent + i}}` }).then(
          async (r) => (await r.body.dump(), r.statusCode),
          () => 0,
        ),
      ),
    );
    for (const status of batch) statuses[status] = (statuses[status] ?? 0) + 1;
    sent += batch.length;
    ok += batch.filter((s) => s === 200).length;
    if (Date.now() >= nextSample) {
      samples.push(rssMiB(app.pid()) ?? NaN);
      nextSample += every;
    }
    await sleep(Math.max(0, 1000 - (Date.now() - second)));
  }
  samples.push(rssMiB(app.pid()) ?? NaN);
  const warm = samples[1] ?? samples[0];
  const last = samples.at(-1)!;
  check(
    'soak: answered',
    ok === sent,
    `${ok} of ${sent} ingest requests answered 200 over ${SOAK_SECONDS} s (${(sent / SOAK_SECONDS).toFixed(0)} req/s; ${JSON.stringify(statuses)})`,
  );
  check(
    'soak: RSS flat',
    last <= warm * 1.25,
    `RSS MiB ${samples.map((m) => m.toFixed(0)).join(' → ')} (after warm-up ${warm.toFixed(0)}, last ${last.toFixed(0)})`,
  );
}

async function main(): Promise<void> {
  cleanUpOnSignals();
  const scenarios: Record<string, () => Promise<void>> = { outage, flapping, slowloris, soak };
  for (const name of SCENARIOS) {
    const run = scenarios[name.trim()];
    if (!run) throw new Error(`unknown scenario ${name}: pick from ${Object.keys(scenarios).join(', ')}`);
    console.log(`\n── ${name}`);
    try {
      await run();
    } catch (err) {
      check(name, false, err instanceof Error ? err.message.split('\n')[0] : String(err));
    } finally {
      await runCleanups();
    }
  }
  console.log(`\nsoak: ${failures === 0 ? 'every check passed' : `${failures} check(s) failed`}`);
  process.exit(failures === 0 ? 0 : 1);
}

await main();
