import type { TApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { CONFIG, type TStore } from './config';
import { runLoad } from './load';
import { atMost, fmt, printTable, type TFigure } from './report';
import { BENCH_SECRET, signedRequest } from './signed-body';
import { withAppSql, type TSql } from './stores';
import { timeReads, type TRead } from './time-reads';

// Payload search (issue 27): each query form of GET /api/search over a 7-day window of
// BENCH_SEARCH_ROWS receipts (1M, 30 days of them, seeded straight into the store), target ≤ 1 s;
// and what the search indexes cost ingest: the signed-ingest rate with the two GIN indexes on
// body_json (jsonb_path_ops and the words) against the same load with them dropped, in one run
// (with, without, with again: the two "with" rounds averaged). The body is parsed to body_json in
// both rounds (ingest does it in JS either way); what differs is the indexes' upkeep.

const INDEXES = `
  create index if not exists receipts_body_json_idx on console.receipts using gin (body_json jsonb_path_ops);
  create index if not exists receipts_body_words_idx on console.receipts using gin (jsonb_to_tsvector('simple'::regconfig, body_json, '["string","numeric"]'::jsonb));`;
const DROP = 'drop index if exists console.receipts_body_json_idx; drop index if exists console.receipts_body_words_idx;';

// 30 days of grant events, newest in the last hour: amounts repeat every 5000 rows, 20 funds,
// "Grace Hopper" in one memo of 10 000, one tracking id each.
const seed = (receiverId: string, rows: number) => `
  insert into console.receipts (receiver_id, method, path, headers, body, body_utf8, body_size, received_at, message_id, verdict, response_status, body_json)
  select '${receiverId}', 'POST', '/ingest/bench-search', '[]', convert_to(b.j, 'UTF8'), true, octet_length(b.j),
         now() - (g % 720) * interval '1 hour' - (g % 3571) * interval '1 second', 'msg_search' || g, 'valid', 200, b.j::jsonb
    from generate_series(1, ${rows}) g,
    lateral (select json_build_object('type', 'grant.succeeded', 'timestamp', now(), 'data', json_build_object(
      'id', md5(g::text), 'trackingId', 'GC-S' || lpad(g::text, 7, '0'), 'amount', 1000 + g % 5000,
      'fund', json_build_object('id', 'fund-' || g % 20, 'name', 'Fund number ' || g % 20),
      'firstName', (array['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger'])[1 + g % 5], 'lastName', 'Donor' || g % 1000,
      'memo', case when g % 10000 = 7 then 'from Grace Hopper, with thanks' else 'a gift in memory of a teacher' end))::text as j) b`;

const QUERIES: { name: string; q: string }[] = [
  { name: 'path=value, one row (tracking id)', q: 'data.trackingId=GC-S0000777' },
  { name: 'path=value, ~47 rows (amount)', q: 'data.amount=1234' },
  { name: 'nested path, ~12k rows (fund id)', q: 'data.fund.id=fund-7' },
  { name: '"free text", ~23 rows', q: '"grace hopper"' },
  { name: '"free text", every row', q: '"in memory of a teacher"' },
  { name: 'path=value, no row', q: 'data.amount=999999' },
];

async function ingestRate(app: TApp, path: string, offset: number): Promise<number> {
  const { requests } = CONFIG.search;
  const { connections, bodyBytes, maxSeconds } = CONFIG.ingest;
  const r = await runLoad(app.baseUrl, { count: requests, connections, maxSeconds, make: (i) => signedRequest(path, bodyBytes, offset + i) });
  return r.ok / r.seconds;
}

export async function benchSearch(store: TStore, app: TApp): Promise<TFigure[]> {
  const { rows, runs, requests } = CONFIG.search;
  console.log(`\n── Search on ${store}: ingest with and without the search indexes (${fmt(requests)} signed requests each), then ${fmt(rows)} receipts over 30 days, a 7-day window`);
  let cookie = await staffCookie(app);
  const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench search', secret: BENCH_SECRET }, headers: { cookie } });
  if (rcv.status !== 201) throw new Error(`creating a receiver: ${rcv.status} ${rcv.text}`);
  const path = `/ingest/${rcv.body.slug}`;
  const onStore = <T>(fn: (sql: TSql) => Promise<T>) => withAppSql(app, fn);

  await ingestRate(app, path, 0); // warm-up
  const with1 = await ingestRate(app, path, requests);
  await onStore((sql) => sql(DROP));
  const without = await ingestRate(app, path, 2 * requests);
  await onStore((sql) => sql(INDEXES));
  const with2 = await ingestRate(app, path, 3 * requests);
  const withIdx = (with1 + with2) / 2;

  // The 1M rows: seeded with the indexes dropped, then built once (as a migration on a big store would).
  let seedS = 0;
  let buildS = 0;
  await onStore(async (sql) => {
    await sql(DROP);
    let t = performance.now();
    await sql(seed(rcv.body.id, rows));
    seedS = (performance.now() - t) / 1000;
    t = performance.now();
    await sql(INDEXES);
    await sql('analyze console.receipts');
    buildS = (performance.now() - t) / 1000;
  });
  cookie = await staffCookie(app);
  const reads: TRead[] = QUERIES.map(({ name, q }) => ({ name, path: `/api/search?q=${encodeURIComponent(q)}`, auth: 'cookie' }));
  const { medians, p90s } = await timeReads(app, reads, runs);
  const counts = await Promise.all(QUERIES.map(async ({ q }) => (await call(app, 'GET', `/api/search?q=${encodeURIComponent(q)}`, { headers: { cookie } })).body.hits?.length ?? 0));

  printTable(`Search on ${store}: GET /api/search, 7-day window over ${fmt(rows)} receipts (seeded in ${fmt(seedS)} s, indexes built in ${fmt(buildS)} s)`, ['query', 'hits listed', 'median', 'p90'], QUERIES.map((r, i) => [r.q, counts[i], `${fmt(medians[i], 1)} ms`, `${fmt(p90s[i], 1)} ms`]));
  printTable(`Ingest on ${store} with the search indexes`, ['round', 'requests/s'], [
    ['with the GIN indexes (mean of two rounds)', fmt(withIdx)],
    ['without them', fmt(without)],
    ['ratio with / without', fmt(withIdx / without, 2)],
  ]);
  return [
    ...QUERIES.map((r, i): TFigure => ({ store, figure: `search ${r.name} over ${fmt(rows)} receipts, p90`, unit: 'ms', value: p90s[i], baseline: null, baselineName: null, target: atMost(1000, 'value', '≤ 1000 ms') })),
    { store, figure: 'ingest rate with the search indexes vs without', unit: 'req/s', value: withIdx, baseline: without, baselineName: 'without the GIN indexes', target: null },
  ];
}
