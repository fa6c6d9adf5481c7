// Statements per grant and per delivery (issue 28), counted on the wire: the app and a `npm run
// worker` process reach PostgreSQL through a proxy on 127.0.0.1 that counts the statements each
// connection sends (simple-protocol Query and extended-protocol Execute messages; pg_stat_statements
// is not installed). 100 grants × 10 webhooks are created through the API with no worker running
// (statements per grant: the web process's), then one worker drains them (statements per delivery:
// the worker's). With STATEMENTS_PROFILE_DIR set, both processes write a CPU profile there.
//   TEST_DATABASE_URL=postgres://… npx tsx tests/bench/statements.ts
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { startApp } from '../helpers/app';
import { call, sleep, token } from '../helpers/http';
import { connectKey, expect201, GRANT, randomEin, subscribe } from './delivery';
import { runLoad } from './load';
import { startSink } from './sink';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const GRANTS = Number(process.env.STATEMENTS_GRANTS ?? 100);
const WEBHOOKS = Number(process.env.STATEMENTS_WEBHOOKS ?? 10);
const PROFILE_DIR = process.env.STATEMENTS_PROFILE_DIR;

/** A TCP proxy to the server of `url` that counts the statements its clients send. */
async function countingProxy(url: URL) {
  let statements = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(url.port || 5432), url.hostname);
    let buf = Buffer.alloc(0);
    let started = false; // the startup message has no type byte
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 4) break;
          const len = buf.readInt32BE(0);
          if (buf.length < len) break;
          const code = buf.readInt32BE(4);
          buf = buf.subarray(len);
          if (code !== 80877103) started = true; // an SSLRequest is followed by the real startup
          continue;
        }
        if (buf.length < 5) break;
        const len = buf.readInt32BE(1);
        if (buf.length < len + 1) break;
        const type = String.fromCharCode(buf[0]);
        if (type === 'Q' || type === 'E') statements++;
        buf = buf.subarray(len + 1);
      }
    });
    upstream.on('data', (d) => client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { port, take: () => statements, reset: () => (statements = 0), close: () => new Promise((r) => server.close(r)) };
}

async function main() {
  if (!ADMIN) throw new Error('TEST_DATABASE_URL names the PostgreSQL server');
  const real = new URL(ADMIN);
  const proxy = await countingProxy(real);
  const viaProxy = new URL(ADMIN);
  viaProxy.port = String(proxy.port);
  const sink = await startSink();
  // One directory per process: each of its threads writes a profile of its own.
  const prof = (name: string) => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, name)}`] : []);
  if (PROFILE_DIR) process.env.APP_NODE_ARGS = prof('web').join(' ');
  const app = await startApp({ adminUrl: viaProxy.toString(), accounts: ['statements'], env: { WORKER_IN_PROCESS: 'false' }, unsetEnv: ['DELIVERY_POLL_MS', 'DELIVERY_RETRY_SCHEDULE'] });
  try {
    const tok = await token(app, app.clients.statements);
    const np = await expect201('nonprofit', call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: randomEin(), user: { email: 'bench@example.org' } } }));
    const apiKey = await connectKey(app, tok, np.id);
    for (let k = 0; k < WEBHOOKS; k++) await subscribe(app, tok, `${sink.origin}/sink/st-${k}`);
    // One grant first, so caches and prepared code paths are warm, as under load.
    const make = () => ({ method: 'POST' as const, path: '/v1/grants', headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(GRANT) });
    await runLoad(app.baseUrl, { count: 1, connections: 1, maxSeconds: 30, make });
    await sleep(200);
    proxy.reset();
    const created = await runLoad(app.baseUrl, { count: GRANTS, connections: 16, maxSeconds: 60, make });
    await sleep(200);
    const perGrant = proxy.take() / created.ok;
    const expected = (created.ok + 1) * WEBHOOKS;
    proxy.reset();
    const worker = spawn(process.execPath, [...prof('worker'), '--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], { cwd: ROOT, env: { ...process.env, ...app.env }, stdio: 'ignore' });
    const t0 = Date.now();
    while (sink.distinct('/sink/st-') < expected && Date.now() - t0 < 120_000) await sleep(20);
    const drainMs = Date.now() - t0;
    await sleep(300);
    const workerStatements = proxy.take();
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    console.log(JSON.stringify({ grants: created.ok, webhooks: WEBHOOKS, statementsPerGrant: perGrant, deliveries: sink.distinct('/sink/st-'), drainMs, workerStatements, statementsPerDelivery: workerStatements / expected }, null, 1));
  } finally {
    await app.destroy();
    await sink.close();
    await proxy.close();
  }
}

await main();
