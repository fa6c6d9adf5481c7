import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TAdmit from '../../lib/service/delivery/admit-send';

// The rate cap's admission at the send (lib/service/delivery/admit-send.ts) beside a claim that is
// taking the same delivery over, on PostgreSQL, where the two run at once in two worker processes: the
// claim locks the delivery's row first, then waits for the webhook's rate row to slot it, which the
// admission holds. An admission refused for long enough gives the delivery back — but not one whose row
// is locked: waiting for it would deadlock the two (PostgreSQL aborts one of them after a second, the
// worker logs an error and the delivery waits out its lease). The store is opened in the test; a second
// connection plays the claim.

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const ACCOUNT = '5e5e5e5e-5e5e-4e5e-8e5e-5e5e5e5e5e5e';
const WEBHOOK = `ep_${'admitsend'.padEnd(26, '0')}1`;
const MSG = `msg_${'admitsend'.padEnd(27, '0')}`;
const OWNER = 'worker-a-lease';

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let admit: typeof TAdmit;
let delivery: string;
let createdAt: Date | string;

before(async () => {
  if (!ON_POSTGRES) return;
  opened = await openTestDatabase('admit');
  db = opened.client;
  admit = await import('../../lib/service/delivery/admit-send');
  // A webhook capped at 1/s, and a delivery of it that worker A holds.
  await db.driverRows(
    `insert into service.accounts (id, name) values ('${ACCOUNT}', 'sandbox');
     insert into service.webhooks (id, account_id, url, event_types, rate_limit) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}', 1);
     insert into service.webhook_rates (webhook_id, next_at) values ('${WEBHOOK}', now());
     insert into service.messages (id, account_id, event_id, event_type, payload) values ('${MSG}', '${ACCOUNT}', 'evt_${MSG.slice(4)}', 'grant.succeeded', '{}');`,
    [],
  );
  // Created with its message (the deliveries' key to their message includes its created_at since the messages are partitioned).
  [{ id: delivery, created_at: createdAt }] = await db.driverRows<{ id: string; created_at: Date | string }>(
    `insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, lease_owner, lease_until, created_at)
     values ($1, $2, $3, 'grant.succeeded', 'sending', 0, $4, now() + interval '1 minute', (select created_at from service.messages where id = $1))
     returning id, created_at`,
    [MSG, WEBHOOK, ACCOUNT, OWNER],
  );
});
after(async () => {
  await opened?.close();
});

const claim = () => ({
  id: delivery,
  messageId: MSG,
  webhookId: WEBHOOK,
  accountId: ACCOUNT,
  scheduledAttemptCount: 0,
  recoverRunId: null,
  leaseOwner: OWNER,
  createdAt: new Date(createdAt).toISOString(),
});
/** The webhook's one send of the last second went just now: a send asked for now waits about a second, longer than the worker holds one. */
const justSent = () => db.driverRows(`update service.webhook_rates set sent_at = array[clock_timestamp()] where webhook_id = $1`, [WEBHOOK]);
const statusOf = async () =>
  (await db.driverRows<{ status: string; lease_owner: string | null }>(`select status, lease_owner from service.deliveries where id = $1`, [delivery]))[0];

test(
  'a refused send whose delivery a claim has locked is not waited for; free again, it is given back',
  { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL: two connections at once' },
  async () => {
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select 1 from service.deliveries where id = $1 for update', [delivery]);
      await justSent();
      // Waiting for the row would hang here until the claim's transaction ends (and deadlock once the claim asks for the rate row).
      const verdict = await Promise.race([
        admit.admitSend(claim(), 1),
        new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 3000).unref()),
      ]);
      if (verdict === 'blocked') assert.fail('the admission waited for the row the claim holds');
      assert.deepEqual(
        verdict,
        { admitted: false, waitMs: verdict.admitted ? 0 : verdict.waitMs, givenBack: false, locked: true },
        'refused, not given back, and said to be locked while still this worker’s: it asks again rather than let it wait out its lease',
      );
      await other.query('rollback');
      assert.deepEqual(await statusOf(), { status: 'sending', lease_owner: OWNER }, 'left as it was for the claim');
      await justSent();
      const again = await admit.admitSend(claim(), 1);
      assert.equal(!again.admitted && again.givenBack, true, 'the row free, the refused send is given back');
      assert.deepEqual(await statusOf(), { status: 'pending', lease_owner: null });
    } finally {
      await other.query('rollback').catch(() => {});
      await other.end();
    }
  },
);

test(
  "a late send's entry is moved to when it went: the admissions after it count it there, once",
  { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL' },
  async () => {
    const log = async () =>
      (
        await db.driverRows<{ ms: string[] }>(
          `select array(select (extract(epoch from t) * 1000)::text from unnest(sent_at) t) as ms from service.webhook_rates where webhook_id = $1`,
          [WEBHOOK],
        )
      )[0].ms.map(Number);
    // Two sends' entries, 900 and 700 ms ago; the second (this one) goes out only now.
    await db.driverRows(
      `update service.webhook_rates set sent_at = array[clock_timestamp() - interval '900 milliseconds', clock_timestamp() - interval '700 milliseconds'] where webhook_id = $1`,
      [WEBHOOK],
    );
    const [other, mine] = await log();
    // Moved to the store's clock as the move runs (the worker's may be another host's): between the two readings around it.
    const storeNow = async () => Number((await db.driverRows<{ ms: string }>(`select (extract(epoch from clock_timestamp()) * 1000)::text as ms`, []))[0].ms);
    const before = Math.floor(await storeNow());
    await admit.restampSend(claim(), mine);
    const after = Math.ceil(await storeNow()); // (the log keeps ms, rounded)
    const [kept, moved] = await log();
    assert.equal(kept, other, 'the other entry kept');
    assert.ok(moved >= before && moved <= after, `moved, not added: to the store's clock as it ran (${moved} in ${before}–${after})`);
    assert.equal((await log()).length, 2);
    // An entry already gone from the log (dropped by later admissions): the send is counted at the move all the same.
    await admit.restampSend(claim(), mine - 5000);
    const [, , added] = await log();
    assert.equal((await log()).length, 3);
    assert.ok(added >= moved && added <= Math.ceil(await storeNow()), 'added at the store’s clock');
  },
);

test('a backlog’s sends are admitted half a slot apart or more, not together as room opens', { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL' }, async () => {
  await db.driverRows(`update service.webhook_rates set sent_at = '{}' where webhook_id = $1`, [WEBHOOK]);
  // At 2/s a slot is 510 ms: the log has room for two, but the second waits until 255 ms after the first (held in the worker: holdMs 1 s).
  const first = await admit.admitSend(claim(), 2, 1000);
  const second = await admit.admitSend(claim(), 2, 1000);
  assert.equal(first.admitted, true);
  assert.ok(!second.admitted && second.waitMs > 0 && second.waitMs <= 255, `the second refused for up to half a slot: ${JSON.stringify(second)}`);
  assert.equal(second.givenBack, false);
  await new Promise((r) => setTimeout(r, Math.ceil(second.admitted ? 0 : second.waitMs) + 1));
  assert.equal((await admit.admitSend(claim(), 2, 1000)).admitted, true, 'and goes once the half slot has passed');
});

test(
  'the workers’ wake-up after a grant’s commit: one NOTIFY at a time, and one more after the last asked while it was out',
  { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL' },
  async () => {
    // (lib/service/delivery/wake-workers.ts, which POST /v1/grants calls on PostgreSQL once its statement has committed.)
    const { wakeWorkers } = await import('../../lib/service/delivery/wake-workers');
    const { DELIVERIES_CHANNEL } = await import('../../lib/service/delivery/enqueue');
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    try {
      let heard = 0;
      listener.on('notification', (n) => void (n.channel === DELIVERIES_CHANNEL && heard++));
      await listener.query(`listen ${DELIVERIES_CHANNEL}`);
      for (let i = 0; i < 50; i++) wakeWorkers(); // fifty grants committed while the first NOTIFY is out
      const deadline = Date.now() + 5000;
      while (heard < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200)); // nothing more comes
      assert.equal(heard, 2, 'the first at once, and one after it for the 49 asked meanwhile');
      wakeWorkers();
      while (heard < 3 && Date.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 10));
      assert.equal(heard, 3, 'idle again: the next one at once');
    } finally {
      await listener.end();
    }
  },
);
