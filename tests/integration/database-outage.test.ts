// Own app: it stops its PostgreSQL server under a worker of its own (WORKER_IN_PROCESS=false).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { freePort, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { postgresBinDir, startScratchPostgres } from '../helpers/scratch-postgres';

// A scale-out deployment (a web process with WORKER_IN_PROCESS=false and an `npm run worker`) on a
// PostgreSQL of the test's own, stopped for several seconds under ingest and grant load: no process
// exits, readiness goes 503 and comes back, every acknowledged receipt and grant is kept and every
// such grant delivered, and once it is back a new grant arrives within 2 s with the fallback poll
// at 10 s (the worker's LISTEN connection was made again).

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = postgresBinDir();
const OUTAGE_MS = 8000;

const alive = (pid: number | undefined) => pid !== undefined && fs.existsSync(`/proc/${pid}`) && !/\) [ZX] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

test(
  'PostgreSQL stopped under load: no process exits, readiness goes 503 and back, nothing acknowledged is lost, LISTEN reconnects',
  { timeout: 300_000 },
  async (t) => {
    if (!BIN) return t.skip('needs PostgreSQL server binaries (initdb and pg_ctl under /usr/lib/postgresql/*/bin): the test stops a cluster of its own');
    // A PostgreSQL fault: it runs in the PostgreSQL pass (TEST_DATABASE_URL set, as CI's second pass), once.
    if (!process.env.TEST_DATABASE_URL) return t.skip('runs in the PostgreSQL pass (TEST_DATABASE_URL): it stops a cluster of its own');
    const server = await startScratchPostgres(BIN);
    const cleanup: (() => Promise<unknown>)[] = [];
    t.after(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => {});
      await server.destroy();
    });
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database gc_test_outage');
    await admin.end();
    const DATABASE_URL = server.url('gc_test_outage');

    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const web: TApp = await startApp({ env: { DATABASE_URL, WORKER_IN_PROCESS: 'false', DELIVERY_POLL_MS: '10000' } });
    cleanup.push(() => web.stop());
    const healthPort = await freePort();
    const worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...web.env, DELIVERY_POLL_MS: '10000', WORKER_HEALTH_PORT: String(healthPort), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let workerOut = '';
    worker.stdout!.on('data', (d) => (workerOut += d));
    worker.stderr!.on('data', (d) => (workerOut += d));
    cleanup.push(async () => {
      if (worker.exitCode !== null) return;
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      worker.kill('SIGKILL');
    });
    const ready = async (url: string) => (await fetch(url).catch(() => null))?.status;
    const webReady = `${web.baseUrl}/api/ready`;
    const workerReady = `http://127.0.0.1:${healthPort}/ready`;
    await eventually(async () => (await ready(workerReady)) === 200, 30_000, `the worker to be ready:\n${workerOut}`);
    assert.equal(await ready(webReady), 200);

    // A Connect to give through, two webhooks to deliver each grant to, a receiver of the console to ingest into.
    const tok = await token(web);
    const np = await call(web, 'POST', '/v1/nonprofits', {
      token: tok,
      body: { ein: `45${String(Date.now()).slice(-7)}`, name: 'Outage Food Bank', user: { email: 'ed@example.org' } },
    });
    assert.equal(np.status, 201, np.text);
    const connect = await call(web, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
    const apiKey = (await call(web, 'GET', `/v1/connects/${connect.body.id}`, { token: tok })).body.apiKey as string;
    const endpoints = [receiver.endpoint(), receiver.endpoint()];
    for (const ep of endpoints) {
      const res = await call(web, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
      assert.equal(res.status, 201, res.text);
    }
    const delivered = (grantId: string) =>
      endpoints.every((ep) => ep.requests().some((r) => r.body.includes(`"id":"${grantId}"`) && JSON.parse(r.body).data?.id === grantId));
    const cookie = await staffCookie(web);
    const slug = (await call(web, 'POST', '/api/receivers', { body: { name: 'outage' }, headers: { cookie } })).body.slug as string;

    // The load: each request is sent again (after a pause) until it gets a 2xx, as a sender would.
    const acked = { receipts: new Set<number>(), grants: new Set<string>() };
    const refused = { ingest: 0, grants: 0, retryAfter: new Set<string>(), other: [] as string[] };
    let loading = true;
    async function untilAcked(send: () => Promise<Response>, onAck: (res: Response) => Promise<void>, kind: 'ingest' | 'grants'): Promise<void> {
      for (;;) {
        const res = await send().catch(() => null);
        if (res && res.status < 300) return onAck(res);
        if (res?.status === 503) {
          refused[kind]++;
          refused.retryAfter.add(res.headers.get('retry-after') ?? '');
        } else if (res) refused.other.push(`${kind} ${res.status} ${await res.text()}`);
        await res?.body?.cancel().catch(() => {});
        await sleep(150);
      }
    }
    const ingestSender = async (n: number) => {
      for (let i = 0; loading; i++) {
        await untilAcked(
          () =>
            fetch(`${web.baseUrl}/ingest/${slug}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sender: n, i }) }),
          async (res) => {
            acked.receipts.add(Number(res.headers.get('x-receipt-id')));
            await res.body?.cancel();
          },
          'ingest',
        );
      }
    };
    const grantSender = async () => {
      while (loading) {
        const key = randomUUID();
        await untilAcked(
          () =>
            fetch(`${web.baseUrl}/v1/grants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify({ amount: 2500, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' }),
            }),
          async (res) => void acked.grants.add((await res.json()).id),
          'grants',
        );
        await sleep(200); // about 5 grants a second
      }
    };
    const senders = Promise.all([...[1, 2, 3, 4].map(ingestSender), grantSender()]);

    await sleep(3000);
    const before = { receipts: acked.receipts.size, grants: acked.grants.size };
    const stoppedAt = Date.now();
    await server.stop();
    await eventually(async () => (await ready(webReady)) === 503 && (await ready(workerReady)) === 503, 10_000, 'readiness to go 503');
    const notReady = await (await fetch(webReady)).json();
    assert.match(notReady.detail, /^not ready: store unreachable/, JSON.stringify(notReady));
    assert.equal(notReady.status, 503);
    const workerNotReady = await (await fetch(workerReady)).json();
    assert.match(workerNotReady.detail, /store unreachable/);
    await sleep(Math.max(0, stoppedAt + OUTAGE_MS - Date.now()));
    assert.ok(alive(web.pid()), `the web process is running through the outage:\n${web.logs()}`);
    assert.equal(worker.exitCode, null, `the worker is running through the outage:\n${workerOut}`);
    await server.start();
    const restartedAt = Date.now();
    await eventually(async () => (await ready(webReady)) === 200 && (await ready(workerReady)) === 200, 15_000, 'readiness to come back');
    t.diagnostic(`ready again ${Date.now() - restartedAt} ms after PostgreSQL started`);
    await sleep(3000);
    loading = false;
    await senders;

    t.diagnostic(
      `acknowledged: ${acked.receipts.size} receipts, ${acked.grants.size} grants (${before.receipts} and ${before.grants} before the stop); refused with 503: ${refused.ingest} ingest, ${refused.grants} grants`,
    );
    assert.ok(acked.receipts.size > before.receipts && acked.grants.size > before.grants, 'load was acknowledged after the outage too');
    assert.ok(refused.ingest > 0 && refused.grants > 0, 'requests during the outage were refused');
    assert.deepEqual([...refused.retryAfter], ['5'], 'every 503 says when to retry');
    assert.deepEqual(refused.other, [], 'nothing but 2xx and 503');

    // Every acknowledged receipt is stored, every acknowledged grant delivered to both webhooks.
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    const stored = new Set(
      (await client.query('select id from console.receipts where id = any($1::bigint[])', [[...acked.receipts]])).rows.map((r) => Number(r.id)),
    );
    await client.end();
    assert.deepEqual(
      [...acked.receipts].filter((id) => !stored.has(id)),
      [],
      'every acknowledged receipt is stored',
    );
    await eventually(async () => [...acked.grants].every(delivered), 30_000, 'every acknowledged grant to be delivered to both webhooks');

    // After the outage, a new grant wakes the worker at once (NOTIFY on the LISTEN connection made again), not at the 10 s poll.
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const grant = await call(web, 'POST', '/v1/grants', {
        token: tok,
        headers: { 'x-service-api-key': apiKey },
        body: { amount: 1000 + i, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' },
      });
      assert.equal(grant.status, 201, grant.text);
      await eventually(async () => delivered(grant.body.id), 5000, 'the grant after recovery');
      const ms = Date.now() - started;
      t.diagnostic(`a grant after recovery delivered in ${ms} ms`);
      assert.ok(ms < 2000, `delivered in ${ms} ms (fallback poll 10 s)`);
      await sleep(300);
    }

    // Both processes ran through it, and said so once each way rather than once per failed query.
    assert.ok(alive(web.pid()), web.logs());
    assert.equal(worker.exitCode, null, workerOut);
    for (const [name, log] of [
      ['web', web.logs()],
      ['worker', workerOut],
    ]) {
      assert.ok(count(log, /database unavailable/g) >= 1 && count(log, /database unavailable/g) <= 3, `${name}: one line per outage\n${log}`);
      assert.ok(count(log, /database available again/g) >= 1, `${name}: a line when it is back\n${log}`);
      assert.equal(count(log, /uncaughtException|Emitted 'error'|unhandledRejection/g), 0, `${name}: nothing uncaught\n${log}`);
      assert.equal(count(log, /\[req_\w+\] /g), 0, `${name}: no request logged an error of its own\n${log}`);
      assert.equal(count(log, /claiming deliveries failed/g), 0, `${name}: the worker's retries are quiet\n${log}`);
    }
  },
);
