import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startApp, type TApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { onCleanup } from './cleanup';
import { CONFIG, PG_ADMIN_URL, type TStore } from './config';
import { runLoad, type TLoadResult } from './load';
import { reconciliationConnect, seedScaleGrantsSql } from './reconciliation';
import { atLeast, atMost, fmt, printTable, type TFigure } from './report';
import { readAtSize, setUp, views } from './scale';
import { seedScaleSql } from './seed-scale';
import { dayStart, intervalOf, pastPartitionsSql, receiptSlotsSql } from './seed-year';
import { BENCH_SECRET, signedRequest } from './signed-body';
import { median, percentile } from './stats';
import { disposeApp, type TSql } from './stores';
import { timeReads } from './time-reads';
import { startWorker } from './workers';
import { benchStalls, printStalls, probeApp, sampleStore, staticAsset, type TProbe } from './year-trace';
import { holdSql, partitionsOf, readDay, yearStore, type TDay, type TPart } from './year-days';

// Issue 52.6: a platform's days on one store, kept by dropping partitions. One account with BENCH_YEAR_WEBHOOKS webhooks
// (scale.ts's, its failures spread over days and webhooks), BENCH_YEAR_GRANTS_PER_DAY grants a day to each. First the
// 100-grant reading of the views (the baseline); then partitions for the past days (seed-year.ts, as the app makes
// them) and the first `retention` days seeded at once; then each further day seeded and a retention pass run by the app
// (year-days.ts: simulated day k is now for a retention of days − k + retention days). Per day: what was dropped, how
// long from the pass's start to the drop, the pass, the store's size. On every day a partition drops, signed receipts are
// POSTed to a console receiver idle and then through the pass's drops: p99 of the requests in flight during the drops,
// pooled over the days, against the idle rounds'. At the end the size at the last day against the first that dropped one,
// then what the scale section reads at size (views vs 100 grants, export vs a bare SELECT, yesterday's reconciliation).

const DAY_MS = 86_400_000;
const INGEST_AFTER_DROP_MS = 2000;
const INGEST_DURING_MAX_MS = 60_000;
const load1 = () => os.loadavg()[0].toFixed(1);

export async function benchYear(store: TStore): Promise<TFigure[]> {
  // PostgreSQL: as OPERATIONS.md deploys a platform of this size, the app with WORKER_IN_PROCESS=false and an `npm run worker`
  // process beside it (the delivery worker, both halves' retention passes, the upkeep); ingest is the app's alone. In one
  // process, each statement of a pass (~40 in a drop's window) is the app's thread too, and ingest waited behind them.
  const postgres = store === 'postgres';
  const app = await startApp({
    adminUrl: postgres ? PG_ADMIN_URL : null,
    unsetEnv: ['DELIVERY_POLL_MS', 'DELIVERY_RETRY_SCHEDULE'],
    env: postgres ? { WORKER_IN_PROCESS: 'false' } : {},
    ownSession: true,
  });
  const dispose = onCleanup(() => disposeApp(app));
  let worker = postgres ? await startWorker(app, {}, true) : null;
  const restart = async (extraEnv?: Record<string, string>) => {
    await worker?.();
    await app.restart(extraEnv);
    if (postgres) worker = await startWorker(app, extraEnv, true);
  };
  try {
    return await yearOn(store, app, restart);
  } catch (err) {
    console.error(`\nyear on ${store}: ${err instanceof Error ? err.stack : String(err)}\n--- app log (tail)\n${app.logs().slice(-4000)}`);
    throw err;
  } finally {
    await dispose();
  }
}

type TIngest = { idle: TLoadResult; during: TLoadResult; day: number; probes: TProbe[]; own: TProbe[]; marks: Record<string, number> };

async function yearOn(store: TStore, app: TApp, restart: (extraEnv?: Record<string, string>) => Promise<void>): Promise<TFigure[]> {
  const { days, retentionDays: keep, grantsPerDay: perDay, webhooks: n, requests } = CONFIG.year;
  const { small, runs } = CONFIG.scale;
  if (days <= keep) throw new Error(`BENCH_YEAR_DAYS (${days}) must be more than BENCH_YEAR_RETENTION_DAYS (${keep})`);
  const y = yearStore(app);
  // Its connection goes before the database does (newest first), on an error too.
  const closeWatch = onCleanup(() => y.close());
  const interval = intervalOf(app.env, y.postgres);
  console.log(
    `\n── Year on ${store}: ${n} webhooks, ${fmt(perDay)} grants a day for ${days} days, retention ${keep} days, ${interval} partitions; load ${load1()}`,
  );
  const { accountId, webhooks } = await setUp(app, n);
  const connect = await reconciliationConnect(app);
  const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench year', secret: BENCH_SECRET }, headers: { cookie: await staffCookie(app) } });
  if (rcv.status !== 201) throw new Error(`creating a receiver: ${rcv.status} ${rcv.text}`);
  const seed = (from: number, rows: number, extra: Partial<Parameters<typeof seedScaleSql>[0]>) =>
    seedScaleSql({ from, rows, accountId, webhooks, spreadSeconds: 6.5 * 86_400, kind: 'spread', ...extra });
  // Day k is UTC day today − (days + 1 − k): the last is yesterday, so the reconciliation reads a whole seeded day.
  const dayEnd = (k: number) => `${dayStart(days - k)} - interval '1 second'`;
  await y.atRest(async (sql) => {
    await sql(pastPartitionsSql(interval, dayStart(days)));
    await sql(receiptSlotsSql(interval, dayStart(days)));
    await sql(holdSql(accountId));
    await sql(seed(0, small, {}));
    await sql(seedScaleGrantsSql(accountId, connect));
    await sql('vacuum analyze');
  });
  await restart();
  const reads = views(webhooks);
  const stopBefore = sampleStore(app, 'reads at 100 grants');
  const before = await timeReads(app, reads, runs);
  await stopBefore();
  const t0 = performance.now();
  await y.atRest(async (sql) => {
    await sql(seed(small, keep * perDay, { newest: dayEnd(keep), spreadSeconds: keep * 86_400 - 2 }));
    await sql(seedScaleGrantsSql(accountId, connect));
    await sql('vacuum analyze');
  });
  console.log(`  days 1–${keep} seeded in ${fmt((performance.now() - t0) / 1000, 1)} s (load ${load1()})`);

  const results: TDay[] = [];
  const ingests: TIngest[] = [];
  let pending: { day: Pick<TDay, 'day' | 'retentionDays' | 'released'>; before: TPart[]; env: Record<string, string> } | null = null;
  // The last day's outcome, read at rest; an embedded store's app stopped before its service pass ended runs on until it has.
  const settle = async (sql: TSql) => {
    if (!pending) return;
    const r = await readDay(sql, pending.day, pending.before, y.postgres);
    if (r) results.push(r);
    return r;
  };
  const settled = async () => {
    for (let tries = 0; pending && tries < 20; tries++) {
      if (await y.atRest(settle)) return;
      await restart(pending.env);
      await new Promise((r) => setTimeout(r, 3000));
    }
    if (pending) throw new Error(`day ${pending.day.day}: the service's retention pass did not end`);
  };
  for (let k = keep + 1; k <= days; k++) {
    const retentionDays = days - k + keep;
    const env = { MESSAGE_RETENTION: `${retentionDays}d`, MESSAGE_PAYLOAD_RETENTION: `${retentionDays}d` };
    if (pending) await settled();
    const before = await y.atRest(async (sql) => {
      await sql(seed(small + (k - 1) * perDay, perDay, { newest: dayEnd(k), spreadSeconds: 86_400 - 2, keepIndexes: true }));
      await sql(seedScaleGrantsSql(accountId, connect));
      await sql('analyze');
      await sql(holdSql(accountId));
      return partitionsOf(sql);
    });
    const restarted = Date.now();
    await restart(env);
    const due = before.filter((p) => p.parent === 'service.attempts' && p.toMs !== null && p.toMs <= Date.now() - retentionDays * DAY_MS);
    const dueUntil = due.length ? Math.max(...due.map((p) => p.toMs!)) : null;
    // The passes the start runs (holding: nothing to do) end first, so the one released is a pass of its own.
    await y.waitPasses(restarted, null);
    let released = Date.now();
    const creds = await y.ready();
    const marks: Record<string, number> = {};
    const pass = async () => {
      released = Date.now();
      await y.release(retentionDays, accountId, creds, marks);
      await y.waitPasses(released, dueUntil, creds);
    };
    // Every partitioned table's step has dropped in this pass (PostgreSQL: read beside the running app; embedded: never known, the pass's end is waited for).
    const parents = new Set(before.map((p) => p.parent)).size;
    const dropped = async () => y.postgres && (await y.passRows()).filter((p) => p.what !== 'pass' && Number(p.lastMs) >= released).length >= parents;
    if (due.length > 0) ingests.push({ ...(await ingestThroughPass(app, rcv.body.slug, requests, k, pass, dropped)), marks });
    else await pass();
    console.log(`  day ${k}: retention ${retentionDays} d released at ${new Date(released).toISOString()}, passes ended (load ${load1()})`);
    pending = { day: { day: k, retentionDays, released }, before, env };
  }
  await settled();
  await closeWatch();
  await restart();
  return [...yearFigures(store, results, ingests), ...(await readAtSizeOf(app, store, { small, runs, webhooks, reads, before, perDay, keep }))];
}

async function readAtSizeOf(app: TApp, store: TStore, r: Omit<Parameters<typeof readAtSize>[2], 'label' | 'size'> & { perDay: number; keep: number }) {
  console.log(`  reading the views at size (load ${load1()})`);
  // BENCH_YEAR_TRACE=1: the views read twice more before the figures' reading, the store's sessions sampled: at once
  // after the app's start (its startup passes and backfills may run), then after a minute idle (they have ended).
  if (CONFIG.year.trace)
    for (const idle of [0, 60_000]) {
      await new Promise((res) => setTimeout(res, idle));
      const stop = sampleStore(app, `reads ${idle / 1000} s after the app's start and the first read`);
      const t = await timeReads(app, r.reads, r.runs);
      await stop();
      console.log(`[trace] medians (load ${load1()}): ${r.reads.map((v, i) => `${v.name} ${fmt(t.medians[i], 1)}`).join('; ')}`);
    }
  return readAtSize(app, store, { ...r, label: 'year', size: `${fmt(r.keep)} days × ${fmt(r.perDay)} grants × ${r.webhooks.length}` });
}

/**
 * Signed ingests idle, then from the release through the partition drops and INGEST_AFTER_DROP_MS after (`dropped` says when
 * every partitioned table has dropped in this pass; at most INGEST_DURING_MAX_MS): a PostgreSQL store's row batches wait for
 * a quiet store (lib/db/store-quiet.ts), so ingest until the pass's end would last until they had all gone 10 s apart. Then
 * the pass goes on without ingest, and is waited for.
 */
async function ingestThroughPass(
  app: TApp,
  slug: string,
  requests: number,
  day: number,
  pass: () => Promise<void>,
  dropped: () => Promise<boolean>,
): Promise<Omit<TIngest, 'marks'>> {
  const { connections, bodyBytes } = CONFIG.ingest;
  let seq = 0;
  const load = (count: number, until?: () => boolean) =>
    runLoad(app.baseUrl, {
      count,
      connections,
      maxSeconds: until ? 900 : CONFIG.ingest.maxSeconds,
      until,
      rate: CONFIG.year.ingestRate || undefined,
      make: () => signedRequest(`/ingest/${slug}`, bodyBytes, seq++),
    });
  const asset = await staticAsset(app);
  await load(Math.min(requests, 1000));
  const idle = await load(requests);
  let over = false;
  const during = load(Number.MAX_SAFE_INTEGER, () => over);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let passEnded = false;
  let probes: TProbe[] = [];
  let own: TProbe[] = [];
  try {
    await sleep(500);
    const stop = sampleStore(app, `the retention pass of day ${day}, ingest under way`);
    const stopProbe = probeApp(app, asset);
    const stopOwn = benchStalls();
    const passing = pass().finally(() => (passEnded = true));
    for (const until = Date.now() + INGEST_DURING_MAX_MS; !passEnded && Date.now() < until && !(await dropped());) await sleep(100);
    await Promise.race([passing, sleep(INGEST_AFTER_DROP_MS)]);
    over = true;
    await stop();
    probes = await stopProbe();
    own = stopOwn();
    await passing;
  } finally {
    over = true;
  }
  return { idle, during: await during, day, probes, own };
}

/** The requests of `l` in flight at some moment of [from, to]: when each was sent, and its latency. */
const inFlight = (l: TLoadResult, [from, to]: [number, number]) =>
  l.latencies.map((ms, i) => ({ at: l.sentAt[i], ms })).filter((x) => x.at <= to && x.at + x.ms >= from);
const within = (l: TLoadResult, w: [number, number]) => inFlight(l, w).map((x) => x.ms);

/**
 * The noise floor of a short window's p99: the idle round cut into consecutive windows as long as the drop's, each window's
 * p99 (those in flight in it, as the drop's are counted). Their median and worst say how far a window with no pass in it
 * already strays from the whole round's p99.
 */
function idleWindowsP99(l: TLoadResult, ms: number): number[] {
  if (!l.sentAt.length || ms <= 0) return [];
  const [start, end] = [Math.min(...l.sentAt), Math.max(...l.sentAt)];
  const out: number[] = [];
  for (let from = start; from + ms <= end; from += ms) out.push(percentile(within(l, [from, from + ms]), 99));
  return out;
}
const mib = (b: number) => fmt(b / 2 ** 20, 1);
const notOk = (l: TLoadResult) => l.sent - l.ok;

function yearFigures(store: TStore, results: TDay[], ingests: TIngest[]): TFigure[] {
  // The size is compared from the first day a partition dropped (the first retention day on PostgreSQL's daily partitions;
  // on the embedded store's weekly ones, the first whose week had passed), so both sides hold the ingest's receipts.
  const first = results.find((d) => d.dropped.length > 0) ?? results[0];
  const last = results[results.length - 1];
  printTable(
    `Year on ${store}: a retention pass a day (load ${load1()})`,
    ['day', 'retention', 'dropped', 'to the drop', 'service pass', 'console pass', 'database MiB', 'attempts', 'deliveries', 'receipts'],
    results.map((d) => [
      d.day,
      `${d.retentionDays} d`,
      d.dropped.map((p) => p.split('.')[1]).join(' ') || '—',
      d.dropMs === null ? '—' : `${fmt(d.dropMs)} ms`,
      d.servicePassMs === null ? '—' : `${fmt(d.servicePassMs)} ms`,
      d.consolePassMs === null ? '—' : `${fmt(d.consolePassMs)} ms`,
      mib(d.size.database),
      mib(d.size.attempts),
      mib(d.size.deliveries),
      mib(d.size.receipts),
    ]),
  );
  const drops = results.filter((d) => d.dropMs !== null);
  const perPartition = drops.map((d) => d.dropMs! / d.dropped.length);
  const figures: TFigure[] = [
    {
      store,
      figure: `year: a retention pass's partition drops, from its start, per partition (worst of ${drops.length} days)`,
      unit: 'ms',
      value: perPartition.length ? Math.max(...perPartition) : NaN,
      baseline: drops.length ? median(drops.map((d) => d.servicePassMs! - d.dropMs!)) : null,
      baselineName: 'the rest of the pass (row by row), median',
      target: store === 'postgres' ? atMost(1000, 'value', '< 1 s') : atMost(100, 'value', '< 100 ms'),
      ...(drops.length ? {} : { note: 'no partition dropped: raise BENCH_YEAR_DAYS' }),
    },
    {
      store,
      figure: `year: store size at day ${last.day} vs day ${first.day}`,
      unit: 'MiB',
      value: last.size.database / 2 ** 20,
      baseline: first.size.database / 2 ** 20,
      baselineName: `day ${first.day}`,
      target: atMost(1.1),
    },
    {
      ...placeholder(store, `year: store size at day ${last.day} vs day ${first.day} (not shrunk)`),
      unit: 'MiB',
      value: last.size.database / 2 ** 20,
      baseline: first.size.database / 2 ** 20,
      baselineName: `day ${first.day}`,
      target: atLeast(0.9),
    },
  ];
  if (!ingests.length) return [...figures, { ...placeholder(store, 'year: ingest p99 during a drop vs idle'), note: 'no day dropped a partition' }];
  // Every day that dropped a partition: its idle round, the requests in flight during its drop, and its idle round cut into
  // windows as long as that drop (the noise floor: how far a window with no pass in it strays). Pooled over the days, so
  // one stall of the store (a WAL flush behind the disk's other writes lands in some idle windows too) is weighed as
  // often on both sides, not decided by whether it fell in the one drop's half second.
  const days = ingests.map((i) => {
    const d = results.find((r) => r.day === i.day);
    const sent = d?.dropWindow ? inFlight(i.during, d.dropWindow) : [];
    const windows = d?.dropWindow ? idleWindowsP99(i.idle, d.dropWindow[1] - d.dropWindow[0]) : [];
    if (d?.dropWindow) printStalls(i.day, d.dropWindow, sent, i.probes, i.own, i.marks);
    return { ...i, inDrop: sent.map((x) => x.ms), windows };
  });
  const idle = days.flatMap((d) => d.idle.latencies);
  const inDrop = days.flatMap((d) => d.inDrop);
  const windows = days.flatMap((d) => d.windows);
  const idleP99 = percentile(idle, 99);
  const ms = (v: number) => `${fmt(v, 1)} ms`;
  printTable(
    `Year on ${store}: signed ingests through each day's drops (${CONFIG.year.ingestRate ? `${CONFIG.year.ingestRate}/s on a schedule` : 'as fast as answered'}, ${CONFIG.ingest.connections} connections)`,
    ['day', 'idle', 'p50', 'p99', 'in flight during the drop', 'p50', 'p99', 'idle windows as long: p99 median, worst', 'not 2xx'],
    [
      ...days.map((d) => [
        d.day,
        d.idle.sent,
        ms(percentile(d.idle.latencies, 50)),
        ms(percentile(d.idle.latencies, 99)),
        d.inDrop.length,
        ms(percentile(d.inDrop, 50)),
        ms(percentile(d.inDrop, 99)),
        d.windows.length ? `${ms(median(d.windows))}, ${ms(Math.max(...d.windows))} (${d.windows.length})` : '—',
        notOk(d.idle) + notOk(d.during),
      ]),
      ['all', idle.length, ms(percentile(idle, 50)), ms(idleP99), inDrop.length, ms(percentile(inDrop, 50)), ms(percentile(inDrop, 99)), '', ''],
    ],
  );
  return [
    ...figures,
    {
      ...placeholder(store, `year: ingest p99 in flight during the drops (${days.length} days, ${inDrop.length} requests) vs idle`),
      value: percentile(inDrop, 99),
      baseline: idleP99,
      baselineName: 'ingest p99 idle',
      target: atMost(1.1),
      ...(inDrop.length ? {} : { note: 'no request in flight during a drop' }),
    },
    {
      ...placeholder(store, `year: ingest p99 of idle windows as long as the drops, worst of ${windows.length}, vs idle (the noise floor)`),
      value: windows.length ? Math.max(...windows) : NaN,
      baseline: idleP99,
      baselineName: 'ingest p99 idle',
    },
    {
      ...placeholder(store, 'year: ingest p99 through the drops and 2 s after vs idle'),
      value: percentile(
        days.flatMap((d) => d.during.latencies),
        99,
      ),
      baseline: idleP99,
      baselineName: 'ingest p99 idle',
    },
    {
      ...placeholder(store, 'year: ingest answers not 2xx, idle and through the passes'),
      unit: 'requests',
      value: days.reduce((n, d) => n + notOk(d.idle) + notOk(d.during), 0),
      target: atMost(0, 'value', '0'),
    },
  ];
}

const placeholder = (store: TStore, figure: string): TFigure => ({ store, figure, unit: 'ms', value: NaN, baseline: null, baselineName: null, target: null });
