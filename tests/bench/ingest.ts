import type { TApp } from '../helpers/app';
import { call } from '../helpers/http';
import { startBareServer, type TBareServer } from './baselines';
import { CONFIG, type TStore } from './config';
import { runLoad, type TLoadResult } from './load';
import { cpuMeter } from './cpu';
import { atLeast, atMost, fmt, printTable, type TFigure } from './report';
import { BENCH_SECRET, signedRequest } from './signed-body';
import { percentile, rssMiB } from './stats';
import { withAppSql } from './stores';

// Ingest: 64 connections of signed 2 KiB webhook POSTs at the app's /ingest/{slug}, beside two bare
// servers on the same kind of store (one INSERT per request; group commit, the floor), in
// alternating rounds. Afterwards every target's stored rows are counted: each 2xx must be a row.

type TTarget = {
  name: string;
  origin: string;
  path: string;
  pid: () => number | undefined;
  databaseUrl: string | undefined;
  results: TLoadResult[];
  warmOk: number;
  cpu: { process: number; store: number };
};

// Per target before its rounds: a receiver in service is warm (its code compiled, its pool open); with
// 200, the app's p99 in 3,000-request rounds was its JIT warming up (the 100k run showed 31 ms).
const WARMUP = 1000;

function merged(t: TTarget) {
  const ok = t.results.reduce((n, r) => n + r.ok, 0);
  const seconds = t.results.reduce((n, r) => n + r.seconds, 0);
  const latencies = t.results.flatMap((r) => r.latencies);
  const statuses: Record<string, number> = {};
  for (const r of t.results) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  return {
    sent: t.results.reduce((n, r) => n + r.sent, 0),
    ok,
    errors: t.results.reduce((n, r) => n + r.errors, 0),
    firstError: t.results.find((r) => r.firstError)?.firstError ?? null,
    statuses,
    perSecond: ok / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function measure(t: TTarget, count: number) {
  const { connections, bodyBytes, maxSeconds } = CONFIG.ingest;
  return runLoad(t.origin, { count, connections, maxSeconds, make: (i) => signedRequest(t.path, bodyBytes, i) });
}

export async function benchIngest(store: TStore, app: TApp, cookie: string): Promise<TFigure[]> {
  const { requests, rounds, connections, bodyBytes, maxBatch } = CONFIG.ingest;
  console.log(`\n── Ingest on ${store}: ${connections} connections, ${bodyBytes}-byte signed bodies, ${requests} requests × ${rounds} rounds per target`);
  const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench ingest', secret: BENCH_SECRET }, headers: { cookie } });
  if (rcv.status !== 201) throw new Error(`creating a receiver: ${rcv.status} ${rcv.text}`);

  const bare: TBareServer[] = [];
  try {
    bare.push(await startBareServer(store, 'one', maxBatch));
    bare.push(await startBareServer(store, 'group', maxBatch));
    bare.push(await startBareServer(store, 'group-search', maxBatch));
    bare.push(await startBareServer(store, 'one-search', maxBatch));
    const targets: TTarget[] = [
      ...bare.map((b) => ({
        name: b.name,
        origin: b.origin,
        path: '/ingest/bare',
        pid: b.pid,
        databaseUrl: b.databaseUrl,
        results: [],
        warmOk: 0,
        cpu: { process: 0, store: 0 },
      })),
      {
        name: 'app POST /ingest/{slug}',
        origin: app.baseUrl,
        path: `/ingest/${rcv.body.slug}`,
        pid: app.pid,
        databaseUrl: app.env.DATABASE_URL || undefined,
        results: [],
        warmOk: 0,
        cpu: { process: 0, store: 0 },
      },
    ];
    for (const t of targets) t.warmOk = (await measure(t, WARMUP)).ok;
    const rssBefore = targets.map((t) => rssMiB(t.pid()));
    for (let round = 0; round < rounds; round++) {
      // Alternate the order, so no target always runs on a machine warmed (or tired) by another.
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        // The CPU each 2xx cost: the target's process (on PGlite the store runs in it) and its database's backends.
        const meter = await cpuMeter(t.pid()!, t.databaseUrl);
        const r = await measure(t, requests);
        const cpu = await meter.stop();
        t.cpu.process += cpu.appMs;
        t.cpu.store += cpu.storeMs;
        t.results.push(r);
        console.log(`  round ${round + 1}  ${t.name.padEnd(30)} ${fmt(r.perSecond).padStart(6)}/s  p99 ${fmt(percentile(r.latencies, 99))} ms`);
      }
    }
    const rssAfter = targets.map((t) => rssMiB(t.pid()));

    const stored: number[] = [];
    for (const b of bare) stored.push(await b.stopAndCount());
    const [row] = await withAppSql(app, (sql) => sql(`select count(*)::int as n from console.receipts where receiver_id = '${rcv.body.id}'`));
    stored.push(Number(row.n));

    const m = targets.map(merged);
    printTable(
      `Ingest on ${store}`,
      [
        'target',
        'sent',
        '2xx',
        'other',
        'receipts/s',
        'p50 ms',
        'p99 ms',
        'CPU ms/receipt: server + store',
        `rows (+${WARMUP} warm-up)`,
        '2xx durable',
        'RSS before→after MiB',
      ],
      targets.map((t, i) => [
        t.name,
        m[i].sent,
        m[i].ok,
        `${
          Object.entries(m[i].statuses)
            .filter(([s]) => !s.startsWith('2'))
            .map(([s, n]) => `${s}×${n}`)
            .join(' ') || '0'
        }${m[i].errors ? ` err×${m[i].errors}` : ''}`,
        m[i].perSecond,
        fmt(m[i].p50, 1),
        fmt(m[i].p99, 1),
        `${fmt(t.cpu.process / m[i].ok, 3)}${store === 'postgres' ? ` + ${fmt(t.cpu.store / m[i].ok, 3)}` : ' (in process)'}`,
        stored[i],
        stored[i] >= m[i].ok + t.warmOk ? 'yes' : `NO (${m[i].ok + t.warmOk} 2xx)`,
        `${fmt(rssBefore[i])} → ${fmt(rssAfter[i])}`,
      ]),
    );
    for (const [i, x] of m.entries()) if (x.firstError) console.log(`  ${targets[i].name}: first error: ${x.firstError}`);

    const [one, group, groupSearch, oneSearch, appM] = m;
    const appAt = targets.length - 1;
    const appOk = appM.ok + targets[appAt].warmOk;
    const growth = (rssAfter[appAt] ?? NaN) - (rssBefore[appAt] ?? NaN);
    // Issue 42: like for like, against the floor that writes what payload search reads (the jsonb copy,
    // its words by trigger, both GIN indexes): on PostgreSQL the group-commit server, on PGlite the
    // one-INSERT one; receipts/s ≥ 0.9× and p99 ≤ 2× that floor's.
    const floorAt = store === 'postgres' ? 2 : 3;
    const cpuPerReceipt = (i: number) => (targets[i].cpu.process + targets[i].cpu.store) / m[i].ok;
    const floor = store === 'postgres' ? groupSearch : oneSearch;
    return [
      {
        store,
        figure: 'ingest receipts/s vs bare one INSERT',
        unit: '/s',
        value: appM.perSecond,
        baseline: one.perSecond,
        baselineName: targets[0].name,
        target: null,
      },
      {
        store,
        figure: 'ingest receipts/s vs bare group commit',
        unit: '/s',
        value: appM.perSecond,
        baseline: group.perSecond,
        baselineName: targets[1].name,
        target: null,
      },
      // What payload search costs the floor (issue 28 asks what each part of the difference costs).
      {
        store,
        figure: 'ingest, bare group commit with search columns vs without',
        unit: '/s',
        value: groupSearch.perSecond,
        baseline: group.perSecond,
        baselineName: targets[1].name,
        target: null,
      },
      {
        store,
        figure: 'ingest, bare one INSERT with search columns vs without',
        unit: '/s',
        value: oneSearch.perSecond,
        baseline: one.perSecond,
        baselineName: targets[0].name,
        target: null,
      },
      {
        store,
        figure: `ingest receipts/s vs ${targets[floorAt].name}`,
        unit: '/s',
        value: appM.perSecond,
        baseline: floor.perSecond,
        baselineName: targets[floorAt].name,
        target: atLeast(0.9),
      },
      {
        store,
        figure: `ingest p99 vs ${targets[floorAt].name}`,
        unit: 'ms',
        value: appM.p99,
        baseline: floor.p99,
        baselineName: targets[floorAt].name,
        target: atMost(2),
      },
      // Where the app's share goes, in CPU rather than in a rate a busy machine moves: server process + its store's backends, per 2xx.
      {
        store,
        figure: `ingest CPU per receipt vs ${targets[floorAt].name}`,
        unit: 'ms',
        value: cpuPerReceipt(appAt),
        baseline: cpuPerReceipt(floorAt),
        baselineName: targets[floorAt].name,
        target: null,
      },
      { store, figure: 'ingest rows stored per 2xx', unit: 'rows', value: stored[appAt], baseline: appOk, baselineName: '2xx answers', target: atLeast(1.0) },
      {
        store,
        figure: `ingest app RSS growth over ${fmt(appM.sent)} receipts`,
        unit: 'MiB',
        value: growth,
        baseline: null,
        baselineName: null,
        target: atMost(50, 'value', '< 50 MiB / 100k'),
        ...(appM.sent < 100_000 ? { note: 'needs BENCH_REQUESTS × BENCH_ROUNDS ≥ 100k' } : {}),
      },
    ];
  } finally {
    for (const b of bare) await b.stop();
    for (const b of bare) await b.drop();
  }
}
