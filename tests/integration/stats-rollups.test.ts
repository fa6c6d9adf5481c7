// Own app: apps on old databases whose rollup backfill it reads behind their backs (upgrade).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, queryAppDb, withAppDb } from '../helpers/app';
import { call, eventually, token } from '../helpers/http';
import { databaseAt } from '../helpers/old-database';
import { openTestDatabase } from '../helpers/in-process-db';
import type * as TStats from '../../lib/service/stats/get-webhook-stats';
import type * as TBackfill from '../../lib/service/stats/backfill-rollups';

// The stats' rollups (service.attempt_histograms, kept by a trigger on service.attempts) against a
// scan of the raw attempts, on a seeded history: three webhooks, attempts spread over eight days
// with random outcomes and response times. Counts must be exact and the percentiles within the
// stated 12 % of the exact nearest-rank value, for every window; attempts stored before the
// rollups existed are added by the backfill, resumably; and a database of the previous release
// opens with its attempts rolled up by the app itself; one of the release before this (rollups a row
// per latency bucket, migration 0012) opens with every count carried into the histograms (0021).

const ACCOUNT = '44444444-4444-4444-8444-444444444444';
const WEBHOOKS = ['ep_roll00000000000000000000001', 'ep_roll00000000000000000000002', 'ep_roll00000000000000000000003'];

/** An account, its webhooks, one message and delivery per webhook to hang attempts on. */
const setup = (accountName: string) => `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${accountName}');
  insert into service.webhooks (id, account_id, url, event_types) values
    ${WEBHOOKS.map((w) => `('${w}', '${ACCOUNT}', 'http://127.0.0.1:9/${w}', '{grant.succeeded}')`).join(', ')};
  insert into service.messages (id, account_id, event_id, event_type, payload) values
    ('msg_roll00000000000000000000001', '${ACCOUNT}', 'evt_roll00000000000000000000001', 'grant.succeeded', '{}');
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count) values
    ${WEBHOOKS.map((w, i) => `('55555555-5555-4555-8555-55555555555${i}', 'msg_roll00000000000000000000001', '${w}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, 1)`).join(', ')};`;

/** `n` attempts at random over the last eight days (a few in the future minute are not made). */
const attempts = (n: number, prefix: string, rolledUp = true) => `
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type${rolledUp ? '' : ', rolled_up'})
  select '${prefix}' || g, ('55555555-5555-4555-8555-55555555555' || (g % 3))::uuid, 'msg_roll00000000000000000000001',
         (array[${WEBHOOKS.map((w) => `'${w}'`).join(', ')}])[g % 3 + 1], '${ACCOUNT}', 'http://127.0.0.1:9/x',
         now() - random() * interval '8 days', case when random() < 0.8 then 'success' else 'failed' end, 200,
         case when random() < 0.05 then 0 else floor(exp(random() * 10))::int end, 'scheduled'${rolledUp ? '' : ', false'}
    from generate_series(1, ${n}) as g;`;

describe('stats rollups against the raw attempts', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let stats: typeof TStats;
  let backfill: typeof TBackfill;

  before(async () => {
    db = await openTestDatabase('rollups');
    stats = await import('../../lib/service/stats/get-webhook-stats');
    backfill = await import('../../lib/service/stats/backfill-rollups');
    await db.client.driverRows(`do $$ begin ${setup('rollups').trim().replace(/;$/, '')}; end $$`, []);
    await db.client.driverRows(`do $$ begin ${attempts(3000, 'atmpt_a').trim().replace(/;$/, '')}; end $$`, []);
  });
  after(async () => db?.close());

  /** The exact nearest-rank percentile of the window's raw response times. */
  async function exactPercentile(webhookId: string, from: Date, until: Date, p: number): Promise<number | null> {
    const [row] = await db.client.driverRows<{ v: number | null }>(
      `select percentile_disc($4::float8) within group (order by response_duration_ms) as v from service.attempts where webhook_id = $1 and created_at >= $2 and created_at <= $3`,
      [webhookId, from, until, p],
    );
    return row.v;
  }

  async function compare(label: string) {
    const handle = await db.client.getDb();
    const now = new Date();
    for (const window of ['1h', '24h', '7d'] as const) {
      const w = stats.statsWindow(window, now);
      const fromRollups = await stats.bucketsOf(handle, WEBHOOKS, w, 'rollups');
      const fromAttempts = await stats.bucketsOf(handle, WEBHOOKS, w, 'attempts');
      for (const id of WEBHOOKS) {
        assert.deepEqual(fromRollups.get(id), fromAttempts.get(id), `${label}: ${id} ${window}: rollups = a scan of the attempts, bucket by bucket`);
        const total = fromRollups.get(id)!.at(-1)!;
        const [raw] = await db.client.driverRows<{ n: number; ok: number }>(
          `select count(*)::int as n, (count(*) filter (where status = 'success'))::int as ok from service.attempts where webhook_id = $1 and created_at >= $2 and created_at <= $3`,
          [id, w.from, w.until],
        );
        assert.deepEqual([total.attempts, total.successes], [raw.n, raw.ok], `${label}: ${id} ${window}: exact counts`);
        for (const [p, got] of [
          [0.5, total.p50],
          [0.95, total.p95],
          [0.99, total.p99],
        ] as const) {
          const exact = await exactPercentile(id, w.from, w.until, p);
          if (exact === null || exact === 0) {
            assert.equal(got, exact, `${label}: ${id} ${window} p${p * 100}`);
            continue;
          }
          assert.ok(got !== null && Math.abs(got - exact) / exact <= 0.12, `${label}: ${id} ${window} p${p * 100}: ${got} vs exact ${exact}`);
        }
      }
    }
  }

  test('kept by the insert: every window, every webhook, equal to the raw scan', async () => {
    const [sum] = await db.client.driverRows<{ n: number }>(`select sum(attempts)::int as n from service.attempt_histograms where bucket_seconds = 300`, []);
    assert.equal(sum.n, 3000, 'each attempt counted once per bucket size');
    await compare('live');
  });

  test('attempts stored before the rollups: the stats read them raw until the backfill, which resumes batch by batch, has added them', async () => {
    await db.client.driverRows(`do $$ begin ${attempts(1000, 'atmpt_old', false).trim().replace(/;$/, '')}; end $$`, []);
    const handle = await db.client.getDb();
    const { rollupsComplete } = await import('../../lib/service/stats/query-rollup-buckets');
    assert.equal(await rollupsComplete(handle, WEBHOOKS), false);
    // The stats meanwhile: from the attempts, so the old ones count at once.
    const [webhook] = await db.client.driverRows<{ id: string }>(`select id from service.webhooks where id = $1`, [WEBHOOKS[0]]);
    assert.ok(webhook);
    let batches = 0;
    while ((await backfill.backfillRollupsOnce(300)) > 0) batches++;
    assert.equal(batches, 4, '1000 attempts in batches of 300');
    assert.equal(await rollupsComplete(handle, WEBHOOKS), true);
    const [sum] = await db.client.driverRows<{ n: number }>(`select sum(attempts)::int as n from service.attempt_histograms where bucket_seconds = 21600`, []);
    assert.equal(sum.n, 4000, 'nothing counted twice, nothing left out');
    await compare('after the backfill');
  });
});

describe('migration 0012 on a database of the previous release', () => {
  let old: Awaited<ReturnType<typeof startApp>>;
  before(async () => {
    // The sandbox account's: the app binds its sandbox client to it, so its token sees these webhooks.
    old = await startApp({ env: await databaseAt('0011_receipt_arrival_host', `${setup('sandbox')}\n${attempts(600, 'atmpt_prev')}`) });
  });
  after(async () => old?.destroy());

  test('the app rolls the earlier attempts up itself, and the account-wide stats count every one', async () => {
    // On the embedded store each look at the database stops and restarts the app: the backfill's
    // own line first, so the look below is not taken (and the backfill restarted) while it is at work.
    await eventually(async () => /stats rollups: \d+ earlier attempts added/.test(old.logs()), 30_000, 'the backfill to say it is done');
    const counts = await eventually(
      async () => {
        const [row] = await queryAppDb<{ left: number; counted: number }>(
          old,
          `select (select count(*)::int from service.attempts where not rolled_up) as left,
                (select coalesce(sum(attempts), 0)::int from service.attempt_histograms where bucket_seconds = 300) as counted`,
        );
        return row.left === 0 && row;
      },
      30_000,
      'every earlier attempt rolled up',
    );
    assert.equal(counts.counted, 600, 'each counted once');
    const t = await token(old);
    const res = await call(old, 'GET', '/v1/webhooks/stats?window=7d&pageLimit=2', { token: t });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.results.length, 2);
    assert.equal(typeof res.body.nextPageToken, 'string');
    const rest = await call(old, 'GET', `/v1/webhooks/stats?window=7d&pageLimit=2&pageToken=${encodeURIComponent(res.body.nextPageToken)}`, { token: t });
    assert.equal(rest.status, 200, rest.text);
    const all = [...res.body.results, ...rest.body.results] as { webhookId: string; from: string; until: string; attempts: number; successes: number }[];
    assert.deepEqual(all.map((s) => s.webhookId).sort(), [...WEBHOOKS].sort());
    const [{ from, until }] = all;
    const [raw] = await queryAppDb<{ n: number; ok: number }>(
      old,
      `select count(*)::int as n, (count(*) filter (where status = 'success'))::int as ok from service.attempts where created_at >= $1 and created_at <= $2`,
      [from, until],
    );
    assert.deepEqual([all.reduce((n, s) => n + s.attempts, 0), all.reduce((n, s) => n + s.successes, 0)], [raw.n, raw.ok]);
    const bad = await call(old, 'GET', '/v1/webhooks/stats?window=2d', { token: t });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.detail, /window/);
  });
});

// From 0020, migration 0021 carries the rollups (a row per latency bucket) into the histograms and
// 0022 replaces the function that adds to them; from 0021, only the function is replaced. Either way
// every count is carried over and new attempts add exactly what a scan of them counts.
for (const [release, what] of [
  ['0020_payload_words', 'migrations 0021-0022 on a database of the release before the histograms (a rollup row per latency bucket)'],
  ['0021_attempt_histograms', 'migration 0022 on a database of the first histograms release (their function replaced)'],
] as const)
  describe(what, () => {
    let old: Awaited<ReturnType<typeof startApp>>;
    before(async () => {
      // Attempts that release's trigger counted, and more arriving once the app runs.
      old = await startApp({ env: await databaseAt(release, `${setup('sandbox')}\n${attempts(900, 'atmpt_old')}`) });
    });
    after(async () => old?.destroy());

    /** Buckets (of every size) whose histogram differs from a count of the raw attempts: none when the histograms hold exactly the attempts. */
    const DIFFERENCES = `
    select count(*)::int as n from (
      select h.webhook_id, h.bucket_seconds, h.bucket_start, u.k - 1 as k, u.n
        from service.attempt_histograms h, unnest(h.latency) with ordinality as u(n, k) where u.n > 0) h
    full join (
      select a.webhook_id, s.secs as bucket_seconds, to_timestamp(floor(extract(epoch from a.created_at) / s.secs) * s.secs) as bucket_start,
             service.latency_bucket(a.response_duration_ms) as k, count(*)::int as n
        from service.attempts a cross join (values (300), (3600), (21600)) s(secs) group by 1, 2, 3, 4) a
    using (webhook_id, bucket_seconds, bucket_start, k)
    where h.n is distinct from a.n`;

    test('every count of the old rollups is in the histograms, new attempts add to them, and the stats agree with the attempts', async () => {
      // One look at the database (on the embedded store each look stops and starts the app again).
      const [before, fn, after] = await withAppDb(old, async (query) => {
        const [counted] = await query<{ n: number; total: number; tables: number }>(
          `select (${DIFFERENCES}) as n,
                (select sum(attempts)::int from service.attempt_histograms where bucket_seconds = 3600) as total,
                (select count(*)::int from pg_tables where schemaname = 'service' and tablename = 'attempt_rollups') as tables`,
        );
        const [source] = await query<{ src: string }>(`select prosrc as src from pg_proc where proname = 'add_to_attempt_rollups'`);
        // New attempts after the upgrade land in the same buckets' histograms through the trigger.
        await query(attempts(300, 'atmpt_new'));
        const [added] = await query<{ n: number; total: number; successes: number; ok: number }>(
          `select (${DIFFERENCES}) as n, (select sum(attempts)::int from service.attempt_histograms where bucket_seconds = 21600) as total,
                (select sum(successes)::int from service.attempt_histograms where bucket_seconds = 300) as successes,
                (select count(*)::int from service.attempts where status = 'success') as ok`,
        );
        return [counted, source, added] as const;
      });
      assert.deepEqual(before, { n: 0, total: 900, tables: 0 }, 'carried over exactly; the old table gone');
      assert.match(fn.src, /count\(\*\) AS n/, "0022's function, which counts per latency bucket first");
      assert.deepEqual([after.n, after.total, after.successes], [0, 1200, after.ok]);
      const res = await call(old, 'GET', '/v1/webhooks/stats?window=24h&pageLimit=3', { token: await token(old) });
      assert.equal(res.status, 200, res.text);
      const all = res.body.results as { from: string; until: string; attempts: number }[];
      const [raw] = await queryAppDb<{ n: number }>(old, `select count(*)::int as n from service.attempts where created_at >= $1 and created_at <= $2`, [
        all[0].from,
        all[0].until,
      ]);
      assert.equal(
        all.reduce((n, s) => n + s.attempts, 0),
        raw.n,
      );
    });
  });
