import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase } from '../helpers/in-process-db';
import type * as TStats from '../../lib/service/stats/get-webhook-stats';
import type * as TBackfill from '../../lib/service/stats/backfill-rollups';

// The stats' rollups (service.attempt_histograms, kept by a trigger on service.attempts) against a
// scan of the raw attempts, on a seeded history: three webhooks, attempts spread over eight days
// with random outcomes and response times. Counts must be exact and the percentiles within the
// stated 12 % of the exact nearest-rank value, for every window; attempts stored before the
// rollups existed are added by the backfill, resumably. Databases of earlier releases (the app rolls
// their attempts up itself; 0012's rollups carried into the histograms): tests/upgrade/stats-rollups.ts.

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
