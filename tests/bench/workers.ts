import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startApp } from '../helpers/app';
import { call, sleep, token } from '../helpers/http';
import { onCleanup } from './cleanup';
import { CONFIG, PG_ADMIN_URL } from './config';
import { connectKey, expect201, fanout, GRANT, randomEin, subscribe } from './delivery';
import { runLoad } from './load';
import { atLeast, fmt, printTable, type TFigure } from './report';
import { startSink, type TSink } from './sink';
import { disposeApp } from './stores';

// Several processes on PostgreSQL: the app with WORKER_IN_PROCESS=false and `npm run worker`
// processes beside it. A queue of grants × webhooks is drained once by one worker and once by two
// (each in an account of its own, so the queues do not mix); two should deliver faster. Twice:
// with receivers that answer at once (the workers' own CPU and the database are the limit: on a
// 2-core machine that runs PostgreSQL too, a second process has no core to run on), and with
// receivers that take BENCH_WORKER_RECEIVER_MS to answer (the common case: a worker's slots wait
// on receivers, and a second worker brings slots of its own).

const ROOT = path.resolve(import.meta.dirname, '../..');
const ACCOUNTS = ['bench-workers-1', 'bench-workers-2', 'bench-workers-1-slow', 'bench-workers-2-slow', 'bench-workers-split-warm', 'bench-workers-split'];
type TApp = Awaited<ReturnType<typeof startApp>>;

/** The app on a fresh PostgreSQL database without its in-process worker (`npm run worker` processes deliver), on its own defaults. */
export async function splitApp(accounts: string[]): Promise<{ app: TApp; dispose: () => Promise<void> }> {
  const app = await startApp({
    adminUrl: PG_ADMIN_URL,
    unsetEnv: ['DELIVERY_POLL_MS', 'DELIVERY_RETRY_SCHEDULE'],
    env: { WORKER_IN_PROCESS: 'false' },
    accounts,
  });
  return { app, dispose: onCleanup(() => disposeApp(app)) };
}

/** A `npm run worker` process on the app's database (and `extraEnv`: the app's restart's), once it has said it started (its first output). */
export async function startWorker(app: TApp, extraEnv: Record<string, string> = {}, ownSession = false): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...app.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    // ownSession: in a session of its own, as a service manager starts it (startApp's ownSession says why).
    detached: ownSession,
  });
  let log = '';
  child.stderr!.on('data', (d) => {
    log += d;
    if (CONFIG.peak.trace) process.stderr.write(`[worker ${child.pid}] ${d}`);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker said nothing in 30 s:\n${log}`)), 30_000);
    child.stdout!.once('data', () => {
      clearTimeout(timer);
      resolve();
    });
    void exited.then(() => reject(new Error(`worker exited (${child.exitCode}):\n${log}`)));
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  return stop;
}

/** Queues grants × webhooks with no worker running, then starts `workers` workers at once and times the drain. */
async function phase(app: TApp, sink: TSink, workers: number, nonprofitId: string, receiverMs: number) {
  const { workerGrants, fanoutWebhooks, grantConcurrency, maxSeconds } = CONFIG.delivery;
  const tok = await token(app, app.clients[ACCOUNTS[workers - 1 + (receiverMs > 0 ? 2 : 0)]]);
  const apiKey = await connectKey(app, tok, nonprofitId);
  const prefix = receiverMs > 0 ? `/sink/delay-${receiverMs}/w${workers}-` : `/sink/w${workers}-`;
  for (let k = 0; k < fanoutWebhooks; k++) await subscribe(app, tok, `${sink.origin}${prefix}${k}`);
  const created = await runLoad(app.baseUrl, {
    count: workerGrants,
    connections: grantConcurrency,
    maxSeconds,
    make: () => ({
      method: 'POST',
      path: '/v1/grants',
      headers: { authorization: `Bearer ${tok}`, 'x-service-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(GRANT),
    }),
  });
  const expected = created.ok * fanoutWebhooks;
  const stops = await Promise.all(Array.from({ length: workers }, () => startWorker(app)));
  const allReady = performance.now();
  try {
    const deadline = performance.now() + maxSeconds * 1000;
    while (sink.distinct(prefix) < expected && performance.now() < deadline) await sleep(20);
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
  const delivered = sink.distinct(prefix);
  // Counted from the moment every worker is up, so one worker's head start is not the pair's figure.
  const window = sink.arrivalsSince(prefix, allReady);
  const seconds = (sink.lastArrival(prefix) - allReady) / 1000;
  return { expected, delivered, repeats: sink.total(prefix) - delivered, window, seconds, perSecond: window / seconds };
}

/**
 * The delivery section's fan-out (grants created through the API while a worker delivers them),
 * with the worker in a process of its own (the split setup) rather than on the web process's thread.
 */
async function splitFanout(app: TApp, sink: TSink, nonprofitId: string) {
  const accounts = [];
  // (No prefix may start another: the sink counts arrivals by prefix.)
  for (const [account, prefix] of [
    ['bench-workers-split-warm', '/sink/split-warm-'],
    ['bench-workers-split', '/sink/split-run-'],
  ]) {
    const tok = await token(app, app.clients[account]);
    const apiKey = await connectKey(app, tok, nonprofitId);
    for (let k = 0; k < CONFIG.delivery.fanoutWebhooks; k++) await subscribe(app, tok, `${sink.origin}${prefix}${k}`);
    accounts.push({ prefix, tok, apiKey });
  }
  const stop = await startWorker(app);
  try {
    // Once to warm both processes up (as the delivery section's latency run does for its fan-out), then measured.
    const [warm, measured] = accounts;
    await fanout(app, sink, warm.tok, warm.apiKey, warm.prefix);
    return await fanout(app, sink, measured.tok, measured.apiKey, measured.prefix);
  } finally {
    await stop();
  }
}

export async function benchWorkers(): Promise<TFigure[]> {
  const { workerGrants, fanoutWebhooks } = CONFIG.delivery;
  console.log(`\n── Workers on postgres: ${workerGrants} grants × ${fanoutWebhooks} webhooks, with 1 and then 2 \`npm run worker\` processes`);
  const { app, dispose } = await splitApp(ACCOUNTS);
  const sink = await startSink();
  try {
    const tok = await token(app, app.clients[ACCOUNTS[0]]);
    const np = await expect201(
      'creating a nonprofit',
      call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein: randomEin(), user: { email: 'bench@example.org' } } }),
    );
    const figures: TFigure[] = [];
    const split = await splitFanout(app, sink, np.id);
    const { fanoutGrants } = CONFIG.delivery;
    const grantsPerSecond = split.created.ok / split.created.seconds;
    printTable(
      "Split setup on postgres (the web process and one `npm run worker` process): the delivery section's fan-out",
      ['measure', 'count', 'figure', 'notes'],
      [
        [
          `POST /v1/grants, ${fanoutWebhooks} webhooks each`,
          split.created.ok,
          `${fmt(grantsPerSecond, 1)} grants/s`,
          split.created.ok < fanoutGrants ? `${fanoutGrants - split.created.ok} not created` : '',
        ],
        [
          'end to end: first POST → last arrival',
          split.delivered,
          `${fmt(split.deliveriesPerSecond)} deliveries/s`,
          `${fmt(split.seconds, 2)} s${split.delivered < split.expected ? `, ${split.expected - split.delivered} missing` : ''}${split.retries ? `, ${split.retries} repeats` : ''}`,
        ],
      ],
    );
    const splitIncomplete = split.delivered < split.expected ? { note: `${split.expected - split.delivered} of ${split.expected} not delivered` } : {};
    // The end-to-end baseline (the delivery section's undici loop) is filled in by run.ts; grant creation is judged by its CPU in the delivery section (issue 42).
    figures.push(
      {
        store: 'postgres',
        figure: `grant create with ${fanoutWebhooks}-way fan-out, worker in its own process`,
        unit: '/s',
        value: grantsPerSecond,
        baseline: null,
        baselineName: null,
        target: null,
      },
      {
        store: 'postgres',
        figure: `delivery throughput, ${fanoutGrants} grants × ${fanoutWebhooks} webhooks, worker in its own process`,
        unit: '/s',
        value: split.deliveriesPerSecond,
        baseline: null,
        baselineName: 'bare undici loop',
        target: atLeast(0.3, 'ratio', '≥ 0.3×'),
        ...splitIncomplete,
      },
    );
    for (const receiverMs of [0, CONFIG.delivery.workerReceiverMs]) {
      const one = await phase(app, sink, 1, np.id, receiverMs);
      const two = await phase(app, sink, 2, np.id, receiverMs);
      const receivers = receiverMs > 0 ? `receivers answering in ${receiverMs} ms` : 'receivers answering at once';
      printTable(
        `Workers on postgres, ${receivers} (app with WORKER_IN_PROCESS=false; a queue drained; timed from all workers up to the last arrival)`,
        ['workers', 'delivered', 'timed (all up)', 'deliveries/s', 'seconds', 'repeats'],
        [one, two].map((r, i) => [String(i + 1), `${fmt(r.delivered)} of ${fmt(r.expected)}`, r.window, r.perSecond, fmt(r.seconds, 2), r.repeats]),
      );
      const incomplete = [one, two].some((r) => r.delivered < r.expected)
        ? { note: 'not every delivery arrived' }
        : [one, two].some((r) => r.window < r.expected / 2)
          ? { note: 'most drained before every worker was up: raise BENCH_WORKER_GRANTS' }
          : {};
      const repeated = [one, two].some((r) => r.repeats > 0) ? { note: `${one.repeats + two.repeats} deliveries arrived twice` } : {};
      // Issue 28: ≥ 1.8× with receivers that take 50 ms (a second worker brings slots of its own); issue 10's > 1.0× otherwise.
      figures.push({
        store: 'postgres',
        figure: `deliveries/s with 2 workers vs 1, ${receivers}`,
        unit: '/s',
        value: two.perSecond,
        baseline: one.perSecond,
        baselineName: '1 worker',
        target: atLeast(receiverMs > 0 ? 1.8 : 1.0),
        ...repeated,
        ...incomplete,
      });
      if (receiverMs === 0) {
        // Its baseline, the delivery section's bare undici loop on PostgreSQL, is filled in by run.ts (relateFigures).
        figures.push({
          store: 'postgres',
          figure: `one worker draining ${fmt(one.expected)} deliveries vs the bare undici loop`,
          unit: '/s',
          value: one.perSecond,
          baseline: null,
          baselineName: 'bare undici loop',
          target: atLeast(0.5),
          ...incomplete,
        });
      }
      if (receiverMs === 0 && CONFIG.delivery.workerReceiverMs === 0) break;
    }
    return figures;
  } finally {
    await sink.close();
    await dispose();
  }
}
