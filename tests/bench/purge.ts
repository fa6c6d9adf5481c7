import type { TApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { CONFIG, type TStore } from './config';
import { runLoad } from './load';
import { atMost, fmt, printTable, type TFigure } from './report';
import { BENCH_SECRET, signedRequest } from './signed-body';
import { percentile } from './stats';
import { withAppSql } from './stores';

// Retention (issue 26): ingest p99 while the console's purge works through a backlog of old
// receipts, against its p99 idle, in one run. BENCH_PURGE_ROWS receipts two hours old are seeded;
// the idle round runs on that table with nothing due (the default 30d), then the app restarts with
// RECEIPT_BODY_RETENTION=1h, so its worker purges them (in batches, at most half the store's time)
// while the same load is sent. Both rounds write into the same million-row table after a restart and
// a warm-up, so the ratio is the purge's cost, not the table's growth. Target: ≤ 2× idle.

type TStatus = { kinds: { what: string; purged: number; due: number }[] };

async function purgedSoFar(app: TApp, cookie: string): Promise<{ purged: number; due: number }> {
  const res = await call<TStatus>(app, 'GET', '/api/retention', { headers: { cookie } });
  const k = res.body.kinds.find((x) => x.what === 'receipt_bodies')!;
  return { purged: k.purged, due: k.due };
}

export async function benchPurge(store: TStore, app: TApp): Promise<TFigure[]> {
  const { rows, requests } = CONFIG.purge;
  const { connections, bodyBytes, maxSeconds } = CONFIG.ingest;
  console.log(`\n── Purge on ${store}: ${fmt(rows)} old receipts purged while ${fmt(requests)} signed ingests run (${connections} connections)`);
  let cookie = await staffCookie(app);
  const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench purge', secret: BENCH_SECRET }, headers: { cookie } });
  if (rcv.status !== 201) throw new Error(`creating a receiver: ${rcv.status} ${rcv.text}`);
  const path = `/ingest/${rcv.body.slug}`;
  const load = (offset: number, count = requests) =>
    runLoad(app.baseUrl, { count, connections, maxSeconds, make: (i) => signedRequest(path, bodyBytes, offset + i) });
  await withAppSql(app, (sql) =>
    sql(`insert into console.receipts (receiver_id, method, path, headers, body, body_size, received_at, message_id, verdict, response_status)
         select '${rcv.body.id}', 'POST', '${path}', '[["webhook-id","msg_bench"]]', convert_to(repeat('x', 512), 'UTF8'), 512,
                now() - interval '2 hours', 'msg_purge' || g, 'valid', 200
           from generate_series(1, ${rows}) g`),
  );
  const warmUp = Math.min(requests, 1000);
  await load(0, warmUp);
  const idle = await load(warmUp);

  await app.restart({ RECEIPT_BODY_RETENTION: '1h' });
  cookie = await staffCookie(app);
  // The purge's first pass starts two seconds after the start; measure once it is under way.
  for (let i = 0; i < 100 && (await purgedSoFar(app, cookie)).purged === 0; i++) await new Promise((r) => setTimeout(r, 100));
  await load(warmUp + requests, warmUp);
  const before = await purgedSoFar(app, cookie);
  const during = await load(2 * warmUp + requests);
  const after = await purgedSoFar(app, cookie);
  const purgedDuring = after.purged - before.purged;
  printTable(
    `Purge on ${store}`,
    ['round', 'ok', 'p50', 'p99', 'receipt bodies purged meanwhile'],
    [
      ['idle', idle.ok, `${fmt(percentile(idle.latencies, 50), 1)} ms`, `${fmt(percentile(idle.latencies, 99), 1)} ms`, 0],
      ['during the purge', during.ok, `${fmt(percentile(during.latencies, 50), 1)} ms`, `${fmt(percentile(during.latencies, 99), 1)} ms`, purgedDuring],
    ],
  );
  return [
    {
      store,
      figure: `ingest p99 during a ${fmt(rows)}-row purge vs idle`,
      unit: 'ms',
      value: percentile(during.latencies, 99),
      baseline: percentile(idle.latencies, 99),
      baselineName: 'ingest p99 idle',
      target: atMost(2),
      // The figure means something only if the purge ran throughout the round.
      ...(after.due === 0 ? { note: `the purge ended during the round (${fmt(purgedDuring)} purged): raise BENCH_PURGE_ROWS` } : {}),
    },
  ];
}
