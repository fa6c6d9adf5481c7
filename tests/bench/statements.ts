// Statements per grant and per delivery (issue 28), counted on the wire: the app and a `npm run
// worker` process reach PostgreSQL through a proxy on 127.0.0.1 that counts the statements each
// connection sends (simple-protocol Query and extended-protocol Execute messages; pg_stat_statements
// is not installed). 100 grants × 10 webhooks are created through the API with no worker running
// (statements per grant: the web process's), then one worker drains them (statements per delivery:
// the worker's). With STATEMENTS_PROFILE_DIR set, both processes write a CPU profile there.
//   TEST_DATABASE_URL=postgres://… npx tsx tests/bench/statements.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
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
// Drop the deliveries indexes the queue does not read (all but the key, the due and the leased
// ones) before the grants: what their upkeep costs the store is the difference from a run without.
const LEAN = process.env.STATEMENTS_LEAN_INDEXES === '1';
const TICK_MS = 1000 / 100; // USER_HZ

/**
 * CPU (ms, user + system) of the PostgreSQL processes on this machine, from /proc: the backends
 * serving `database`, and the server's shared background processes (WAL writer, checkpointer,
 * autovacuum, …; other databases' work lands there too).
 */
function pgCpu(database: string): { backends: Map<number, number>; background: Map<number, number> } {
  const backends = new Map<number, number>();
  const background = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.startsWith('postgres: ')) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
      const words = cmd.replace(/\0/g, ' ').split(/\s+/);
      if (words.includes(database)) backends.set(Number(entry), ms);
      else if (!/ \d+\.\d+\.\d+\.\d+\(|\[local\]/.test(cmd)) background.set(Number(entry), ms);
    } catch {
      // gone meanwhile
    }
  }
  return { backends, background };
}

/** A process's CPU so far (ms, user + system), from /proc. */
function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU spent between two readings: a process that appeared meanwhile counts from zero; one that ended is lost (read before stopping). */
function cpuSince(before: ReturnType<typeof pgCpu>, after: ReturnType<typeof pgCpu>) {
  const diff = (a: Map<number, number>, b: Map<number, number>) => [...b].reduce((sum, [pid, ms]) => sum + ms - (a.get(pid) ?? 0), 0);
  return { backendsMs: diff(before.backends, after.backends), backgroundMs: diff(before.background, after.background) };
}

/** The deliveries table's counters (pg's statistics are sent at a transaction's end, so read them after a pause). */
async function tableStats(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select n_tup_ins::int as ins, n_tup_upd::int as upd, n_tup_hot_upd::int as hot, n_tup_del::int as del,
         (select count(*)::int from pg_indexes where schemaname = 'service' and tablename = 'deliveries') as indexes
       from pg_stat_user_tables where schemaname = 'service' and relname = 'deliveries'`,
    );
    return rows[0] as { ins: number; upd: number; hot: number; del: number; indexes: number };
  } finally {
    await client.end();
  }
}

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
  const app = await startApp({
    adminUrl: viaProxy.toString(),
    accounts: ['statements'],
    env: { WORKER_IN_PROCESS: 'false' },
    unsetEnv: ['DELIVERY_POLL_MS', 'DELIVERY_RETRY_SCHEDULE'],
  });
  try {
    const dbUrl = app.env.DATABASE_URL.replace(`:${proxy.port}/`, `:${real.port || 5432}/`);
    const dbName = new URL(dbUrl).pathname.slice(1);
    if (LEAN) {
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      const { rows } = await client.query(
        `select indexname from pg_indexes where schemaname = 'service' and tablename = 'deliveries'
           and indexname not in ('deliveries_id_created_at_pk', 'deliveries_due_idx', 'deliveries_leased_idx')`,
      );
      for (const r of rows) await client.query(`drop index service."${r.indexname}"`);
      await client.end();
    }
    const tok = await token(app, app.clients.statements);
    const np = await expect201(
      'nonprofit',
      call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: randomEin(), user: { email: 'bench@example.org' } } }),
    );
    const apiKey = await connectKey(app, tok, np.id);
    for (let k = 0; k < WEBHOOKS; k++) await subscribe(app, tok, `${sink.origin}/sink/st-${k}`);
    // One grant first, so caches and prepared code paths are warm, as under load.
    const make = () => ({
      method: 'POST' as const,
      path: '/v1/grants',
      headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(GRANT),
    });
    await runLoad(app.baseUrl, { count: 1, connections: 1, maxSeconds: 30, make });
    await sleep(200);
    proxy.reset();
    const cpu0 = pgCpu(dbName);
    const webCpu0 = processCpuMs(app.pid()!);
    const created = await runLoad(app.baseUrl, { count: GRANTS, connections: 16, maxSeconds: 60, make });
    await sleep(200);
    const grantCpu = cpuSince(cpu0, pgCpu(dbName));
    const webCpuMs = processCpuMs(app.pid()!) - webCpu0;
    const perGrant = proxy.take() / created.ok;
    await sleep(1000); // the grants' row counts reach pg's statistics
    const stats0 = await tableStats(dbUrl);
    const expected = (created.ok + 1) * WEBHOOKS;
    proxy.reset();
    const worker = spawn(process.execPath, [...prof('worker'), '--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...app.env },
      stdio: 'ignore',
    });
    const cpu1 = pgCpu(dbName);
    const sinkCpu0 = process.cpuUsage();
    const t0 = Date.now();
    while (sink.distinct('/sink/st-') < expected && Date.now() - t0 < 300_000) await sleep(20);
    const drainMs = Date.now() - t0;
    await sleep(300);
    const drainCpu = cpuSince(cpu1, pgCpu(dbName));
    const sinkCpu = process.cpuUsage(sinkCpu0);
    const workerCpuMs = processCpuMs(worker.pid!);
    const workerStatements = proxy.take();
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await sleep(700);
    const stats1 = await tableStats(dbUrl);
    const per = (ms: number, n: number) => Math.round((ms / n) * 1000) / 1000;
    console.log(
      JSON.stringify(
        {
          lean: LEAN,
          deliveriesIndexes: stats1.indexes,
          grants: created.ok,
          webhooks: WEBHOOKS,
          statementsPerGrant: perGrant,
          webCpuPerGrantMs: per(webCpuMs, created.ok),
          storeCpuPerGrantMs: { backends: per(grantCpu.backendsMs, created.ok), sharedBackground: per(grantCpu.backgroundMs, created.ok) },
          deliveries: sink.distinct('/sink/st-'),
          drainMs,
          workerStatements,
          statementsPerDelivery: workerStatements / expected,
          storeCpuPerDeliveryMs: { backends: per(drainCpu.backendsMs, expected), sharedBackground: per(drainCpu.backgroundMs, expected) },
          // The worker's whole life (its start-up included); the sink runs in this process.
          workerCpuPerDeliveryMs: per(workerCpuMs, expected),
          sinkCpuPerDeliveryMs: per((sinkCpu.user + sinkCpu.system) / 1000, expected),
          drainRowChanges: { updates: stats1.upd - stats0.upd, hotUpdates: stats1.hot - stats0.hot, inserts: stats1.ins - stats0.ins },
        },
        null,
        1,
      ),
    );
  } finally {
    await app.destroy();
    await sink.close();
    await proxy.close();
  }
}

await main();
