import assert from 'node:assert/strict';
import { withAppDb, type TAppDbQuery } from '../helpers/app';
import { call, eventually, token } from '../helpers/http';
import type { TUpgradeApp, TUpgradeStep } from '../helpers/upgrade-walk';

// The stats' rollups on databases of earlier releases (from stats-rollups.test.ts): one of the
// release before them (0011) opens with its attempts rolled up by the app itself; one of the release
// before the histograms (0020, a rollup row per latency bucket) and one of the first histograms
// release (0021) open with every count carried into the histograms and 0022's function adding new
// attempts. Each step has its own account, webhooks and attempts, and every count below is of its
// own webhooks only: the walked database holds the other steps' attempts too (the backfill rolls up
// every earlier step's, and the stats of an account see only its own).

type TSeed = { name: string; account: string; webhooks: string[]; message: string; deliveries: string[] };

/** The names and ids of a step's own rows, from its tag (two decimal digits, unique per step). */
function seedOf(tag: string): TSeed {
  const pad = (prefix: string, body: string) => `${prefix}${body.padEnd(27, '0')}`;
  return {
    name: `stats-rollups-${tag}`,
    account: `44444444-4444-4444-8444-4444444444${tag}`,
    webhooks: [1, 2, 3].map((i) => pad('ep_', `roll${tag}w${i}`)),
    message: pad('msg_', `roll${tag}`),
    deliveries: [0, 1, 2].map((i) => `55555555-5555-4555-8555-55555555${tag}0${i}`),
  };
}

/** An account, its webhooks, one message and delivery per webhook to hang attempts on. */
const setup = (s: TSeed) => `
  insert into service.accounts (id, name) values ('${s.account}', '${s.name}');
  insert into service.webhooks (id, account_id, url, event_types) values
    ${s.webhooks.map((w) => `('${w}', '${s.account}', 'http://127.0.0.1:9/${w}', '{grant.succeeded}')`).join(', ')};
  insert into service.messages (id, account_id, event_id, event_type, payload) values
    ('${s.message}', '${s.account}', 'evt_${s.message.slice(4)}', 'grant.succeeded', '{}');
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count) values
    ${s.webhooks.map((w, i) => `('${s.deliveries[i]}', '${s.message}', '${w}', '${s.account}', 'grant.succeeded', 'success', 1, 1)`).join(', ')};`;

/** `n` attempts at random over the last eight days. */
const attempts = (s: TSeed, n: number, prefix: string) => `
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type)
  select '${prefix}' || g, (array[${s.deliveries.map((d) => `'${d}'`).join(', ')}])[g % 3 + 1]::uuid, '${s.message}',
         (array[${s.webhooks.map((w) => `'${w}'`).join(', ')}])[g % 3 + 1], '${s.account}', 'http://127.0.0.1:9/x',
         now() - random() * interval '8 days', case when random() < 0.8 then 'success' else 'failed' end, 200,
         case when random() < 0.05 then 0 else floor(exp(random() * 10))::int end, 'scheduled'
    from generate_series(1, ${n}) as g;`;

const inList = (ids: string[]) => ids.map((id) => `'${id}'`).join(', ');

/** Buckets (of every size) of `webhooks` whose histogram differs from a count of their raw attempts: none when the histograms hold exactly the attempts. */
const differences = (webhooks: string[]) => `
    select count(*)::int as n from (
      select h.webhook_id, h.bucket_seconds, h.bucket_start, u.k - 1 as k, u.n
        from service.attempt_histograms h, unnest(h.latency) with ordinality as u(n, k) where u.n > 0 and h.webhook_id in (${inList(webhooks)})) h
    full join (
      select a.webhook_id, s.secs as bucket_seconds, to_timestamp(floor(extract(epoch from a.created_at) / s.secs) * s.secs) as bucket_start,
             service.latency_bucket(a.response_duration_ms) as k, count(*)::int as n
        from service.attempts a cross join (values (300), (3600), (21600)) s(secs) where a.webhook_id in (${inList(webhooks)}) group by 1, 2, 3, 4) a
    using (webhook_id, bucket_seconds, bucket_start, k)
    where h.n is distinct from a.n`;

const PREV = seedOf('11'); // migration 0012 on a database of the release before
const HISTOGRAMS = [
  {
    seed: seedOf('20'),
    release: '0020_payload_words',
    what: 'migrations 0021-0022 on a database of the release before the histograms (a rollup row per latency bucket)',
  },
  { seed: seedOf('21'), release: '0021_attempt_histograms', what: 'migration 0022 on a database of the first histograms release (their function replaced)' },
];

/** An attempt's time in microseconds (the database's own precision) and whether it succeeded. */
type TMade = { us: number; ok: boolean };
type TLook = { prev: { backfillSaid: boolean; left: number; counted: number; made: TMade[] } };
type THistogramLook = {
  before: { n: number; total: number; tables: number };
  fn: string;
  after: { n: number; total: number; successes: number; ok: number };
  made: TMade[];
};

/** How many of `made` fall in a stats answer's window [from, until] (both ends in, as the old test's SQL counted): all, and those that succeeded. */
function inWindow(made: TMade[], window: { from: string; until: string }): [number, number] {
  const [from, until] = [window.from, window.until].map((t) => Date.parse(t) * 1000);
  const within = made.filter((a) => a.us >= from && a.us <= until);
  return [within.length, within.filter((a) => a.ok).length];
}

// Each step's own look at the database, after the backfill's own line, so that a look is not taken (and
// the backfill restarted) while it is at work. upgrade.test.ts takes the steps' looks together, in one
// stop and start of the app on the embedded store (tests/helpers/upgrade-walk.ts, runWithLookBatch).
// What a step then reads of the stats over HTTP it compares with the attempts read here: nothing else
// adds attempts to these webhooks (their deliveries succeeded).
const backfillSaid = (app: TUpgradeApp) => eventually(async () => /stats rollups: \d+ earlier attempts added/.test(app.logs()), 30_000).catch(() => false);
const made = async (query: TAppDbQuery, s: TSeed): Promise<TMade[]> =>
  (
    await query<{ us: string; ok: boolean }>(
      `select (extract(epoch from created_at) * 1000000)::bigint::text as us, status = 'success' as ok from service.attempts where account_id = $1`,
      [s.account],
    )
  ).map((r) => ({ us: Number(r.us), ok: r.ok }));

async function lookPrev(app: TUpgradeApp): Promise<TLook['prev']> {
  const said = await backfillSaid(app);
  return withAppDb(app, async (query) => {
    const [prev] = await query<{ left: number; counted: number }>(
      `select (select count(*)::int from service.attempts where not rolled_up and account_id = $1) as left,
              (select coalesce(sum(attempts), 0)::int from service.attempt_histograms where bucket_seconds = 300 and webhook_id in (${inList(PREV.webhooks)})) as counted`,
      [PREV.account],
    );
    return { backfillSaid: said, ...prev, made: await made(query, PREV) };
  });
}

async function lookHistograms(app: TUpgradeApp, s: TSeed): Promise<THistogramLook> {
  await backfillSaid(app);
  return withAppDb(app, async (query) => {
    const mine = inList(s.webhooks);
    const [before] = await query<{ n: number; total: number; tables: number }>(
      `select (${differences(s.webhooks)}) as n,
              (select sum(attempts)::int from service.attempt_histograms where bucket_seconds = 3600 and webhook_id in (${mine})) as total,
              (select count(*)::int from pg_tables where schemaname = 'service' and tablename = 'attempt_rollups') as tables`,
    );
    const [fn] = await query<{ src: string }>(`select prosrc as src from pg_proc where proname = 'add_to_attempt_rollups'`);
    // New attempts after the upgrade land in the same buckets' histograms through the trigger.
    await query(attempts(s, 300, `atmpt_new${s.name.slice(-2)}_`));
    const [after] = await query<{ n: number; total: number; successes: number; ok: number }>(
      `select (${differences(s.webhooks)}) as n,
              (select sum(attempts)::int from service.attempt_histograms where bucket_seconds = 21600 and webhook_id in (${mine})) as total,
              (select sum(successes)::int from service.attempt_histograms where bucket_seconds = 300 and webhook_id in (${mine})) as successes,
              (select count(*)::int from service.attempts where status = 'success' and webhook_id in (${mine})) as ok`,
    );
    return { before, fn: fn.src, after, made: await made(query, s) };
  });
}

const previousRelease: TUpgradeStep = {
  name: 'migration 0012: the app rolls the earlier attempts up itself, and the account-wide stats count every one',
  release: '0011_receipt_arrival_host',
  accounts: [PREV.name],
  rows: `${setup(PREV)}\n${attempts(PREV, 600, 'atmpt_prev11_')}`,
  check: async (app) => {
    const prev = await lookPrev(app);
    assert.ok(prev.backfillSaid, 'the backfill said it was done (stats rollups: N earlier attempts added)');
    assert.deepEqual([prev.left, prev.counted], [0, 600], 'every earlier attempt rolled up, each counted once');
    const t = await token(app, app.clients[PREV.name]);
    const res = await call(app, 'GET', '/v1/webhooks/stats?window=7d&pageLimit=2', { token: t });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.results.length, 2);
    assert.equal(typeof res.body.nextPageToken, 'string');
    const rest = await call(app, 'GET', `/v1/webhooks/stats?window=7d&pageLimit=2&pageToken=${encodeURIComponent(res.body.nextPageToken)}`, { token: t });
    assert.equal(rest.status, 200, rest.text);
    const all = [...res.body.results, ...rest.body.results] as { webhookId: string; from: string; until: string; attempts: number; successes: number }[];
    assert.deepEqual(all.map((s) => s.webhookId).sort(), [...PREV.webhooks].sort());
    assert.deepEqual([all.reduce((n, s) => n + s.attempts, 0), all.reduce((n, s) => n + s.successes, 0)], inWindow(prev.made, all[0]));
    const bad = await call(app, 'GET', '/v1/webhooks/stats?window=2d', { token: t });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.detail, /window/);
  },
};

// From 0020, migration 0021 carries the rollups (a row per latency bucket) into the histograms and
// 0022 replaces the function that adds to them; from 0021, only the function is replaced. Either way
// every count is carried over and new attempts add exactly what a scan of them counts.
const histograms = HISTOGRAMS.map(({ seed: s, release, what }): TUpgradeStep => ({
  name: `${what}: every count of the old rollups is in the histograms, new attempts add to them, and the stats agree with the attempts`,
  release,
  accounts: [s.name],
  // Attempts that release's trigger counted, and more arriving once the app runs (in the look).
  rows: `${setup(s)}\n${attempts(s, 900, `atmpt_old${s.name.slice(-2)}_`)}`,
  check: async (app) => {
    const { before, fn, after, made } = await lookHistograms(app, s);
    assert.deepEqual(before, { n: 0, total: 900, tables: 0 }, 'carried over exactly; the old table gone');
    assert.match(fn, /count\(\*\) AS n/, "0022's function, which counts per latency bucket first");
    assert.deepEqual([after.n, after.total, after.successes], [0, 1200, after.ok]);
    const res = await call(app, 'GET', '/v1/webhooks/stats?window=24h&pageLimit=3', { token: await token(app, app.clients[s.name]) });
    assert.equal(res.status, 200, res.text);
    const all = res.body.results as { from: string; until: string; attempts: number }[];
    assert.equal(
      all.reduce((n, x) => n + x.attempts, 0),
      inWindow(made, all[0])[0],
    );
  },
}));

export const steps: TUpgradeStep[] = [previousRelease, ...histograms];
