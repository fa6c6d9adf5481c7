import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TClaimModule from '../../lib/service/delivery/claim';
import type * as TPause from '../../lib/service/webhooks/pause-webhook';

// A resume's unparking (lib/service/webhooks/pause-webhook.ts) on a real store opened by the app's own code (PGlite, or
// PostgreSQL with TEST_DATABASE_URL); no app, no worker: what the resume leaves is read before any claim runs. A capped
// webhook's parked backlog gets its slots in the resume, so it is not due all at once: made due at their creation time,
// the backlog was the oldest of the due deliveries, and every claim's candidates were the capped webhook's alone until
// each had been slotted, one claim of a worker's free slots at a time — another webhook's deliveries waited behind it.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let pause: typeof TPause;
let claims: typeof TClaimModule;
const ACCOUNT = '00000000-0000-4000-8000-0000000a4c0e';
const CAPPED = `ep_${'unparkcapped'.padEnd(27, '0')}`;
const OTHER = `ep_${'unparkother'.padEnd(27, '0')}`;
const STEP_MS = 510; // 1.02 s / 2

before(async () => {
  opened = await openTestDatabase('unpark');
  db = opened.client;
  pause = await import('../../lib/service/webhooks/pause-webhook');
  claims = await import('../../lib/service/delivery/claim');
  await run(`insert into service.accounts (id, name) values ('${ACCOUNT}', 'unpark')`);
  await run(
    `insert into service.webhooks (id, account_id, url, event_types, rate_limit) values
       ('${CAPPED}', '${ACCOUNT}', 'http://127.0.0.1:9/c', '{grant.succeeded}', 2), ('${OTHER}', '${ACCOUNT}', 'http://127.0.0.1:9/o', '{grant.succeeded}', null)`,
  );
  await run(`insert into service.webhook_rates (webhook_id, next_at) values ('${CAPPED}', now())`);
});
after(async () => {
  await opened?.close();
});

const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);

/** A message and its delivery to `webhook`, made `agoMs` before now, in `status`, its next attempt `due` (SQL). */
async function delivery(name: string, webhook: string, agoMs: number, status = 'pending', due = 'null'): Promise<string> {
  const message = `msg_${name.padEnd(27, '0')}`;
  await run(
    `insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
     values ($1, $2, $3, 'grant.succeeded', '{}', now() - $4::int * interval '1 millisecond')`,
    [message, ACCOUNT, `evt_${name}`, agoMs],
  );
  const [row] = await run<{ id: string }>(
    `insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
     select id, $2, account_id, event_type, $3, ${due}, created_at from service.messages where id = $1 returning id`,
    [message, webhook, status],
  );
  return row.id;
}

type TRow = { id: string; created: number; next: number | null; slot: number | null };
async function rowsOf(webhook: string): Promise<TRow[]> {
  const rows = await run<{ id: string; created: string; next: string | null; slot: string | null }>(
    `select id, extract(epoch from created_at) * 1000 as created, extract(epoch from next_attempt_at) * 1000 as next,
       extract(epoch from slot_at) * 1000 as slot
     from service.deliveries where webhook_id = $1 and status = 'pending' order by created_at, id`,
    [webhook],
  );
  return rows.map((r) => ({
    id: r.id,
    created: Number(r.created),
    next: r.next === null ? null : Number(r.next),
    slot: r.slot === null ? null : Number(r.slot),
  }));
}

const unpark = async (webhook: string) => (await db.getDb()).transaction((tx) => pause.unparkDeliveries(tx, webhook));

test("resumed, a capped webhook's parked backlog waits in its slots, oldest first, from where its schedule stood; a claim takes another webhook's due delivery beside it", async () => {
  // Six parked, made 60 s to 10 s ago in another order than their age; a retry waiting its time; one delivered.
  const ages = [30, 60, 10, 50, 20, 40].map((s) => s * 1000);
  const parked: string[] = [];
  for (const [i, ago] of ages.entries()) parked.push(await delivery(`unpark-c${i}`, CAPPED, ago));
  const retry = await delivery('unpark-retry', CAPPED, 70_000, 'pending', `now() + interval '1 hour'`);
  await delivery('unpark-done', CAPPED, 80_000, 'success');
  // Another webhook's delivery, due now and newer than the whole backlog.
  const fresh = await delivery('unpark-other', OTHER, 1_000, 'pending', 'created_at');

  // The capped webhook's schedule stands 3 s ahead (slots given before the pause).
  const [{ at }] = await run<{ at: string }>(
    `update service.webhook_rates set next_at = now() + interval '3 seconds' where webhook_id = $1 returning extract(epoch from next_at) * 1000 as at`,
    [CAPPED],
  );
  assert.equal(await unpark(CAPPED), 6, 'the six parked ones');
  // A worker with one free slot: its claim's candidates are the oldest due, and the backlog is none of them.
  const claimed = await claims.claimDeliveries({ owner: 'unpark-worker', limit: 1, leaseMs: 30_000 });
  assert.deepEqual(
    claimed.jobs.map((j) => j.claim.id),
    [fresh],
    "the other webhook's delivery, not held behind the capped backlog",
  );
  const after = (await rowsOf(CAPPED)).filter((r) => r.id !== retry);
  assert.deepEqual(
    after.map((r) => r.id),
    [1, 3, 5, 0, 4, 2].map((k) => parked[k]),
    'oldest first',
  );
  assert.ok(
    after.every((r) => r.slot !== null && r.next === r.slot),
    `each due at its slot: ${JSON.stringify(after)}`,
  );
  assert.ok(Math.abs(after[0].slot! - Number(at)) < 2, `the first slot ${after[0].slot} where the schedule stood, ${at}`);
  for (let k = 1; k < after.length; k++)
    assert.ok(Math.abs(after[k].slot! - after[k - 1].slot! - STEP_MS) < 2, `slot ${k}: ${after[k].slot! - after[k - 1].slot!} ms after the one before`);
  const [{ next }] = await run<{ next: string }>(`select extract(epoch from next_at) * 1000 as next from service.webhook_rates where webhook_id = $1`, [
    CAPPED,
  ]);
  assert.ok(Math.abs(Number(next) - after.at(-1)!.slot! - STEP_MS) < 2, "the schedule goes on after the backlog's last slot");
  const [waiting] = (await rowsOf(CAPPED)).filter((r) => r.id === retry);
  assert.equal(waiting.slot, null, 'a retry waiting its time is no parked delivery: left as it was');
});

test("resumed, an uncapped webhook's parked deliveries are due at their creation time, oldest first", async () => {
  const a = await delivery('unpark-o1', OTHER, 20_000);
  const b = await delivery('unpark-o2', OTHER, 40_000);
  assert.equal(await unpark(OTHER), 2);
  const rows = (await rowsOf(OTHER)).filter((r) => r.id === a || r.id === b);
  assert.deepEqual(
    rows.map((r) => [r.id, r.next === r.created, r.slot]),
    [
      [b, true, null],
      [a, true, null],
    ],
  );
  assert.equal(await unpark(OTHER), 0, 'nothing left parked');
});

// A capped webhook paused after its delivery was claimed: the job waited in the worker for the limiter (admit-send.ts), and the
// send asked for then must not go (the peak bench saw 4-12 arrivals while paused, at load).
const PAUSED = `ep_${'unparkpaused'.padEnd(27, '0')}`;
const OWNER = 'unpark-worker-lease';

/** A delivery of PAUSED this worker holds (`sending`, leased), as a claim leaves it, and the claim the worker has of it. */
async function claimedDelivery(name: string) {
  const id = await delivery(name, PAUSED, 1_000, 'sending', 'now()');
  await run(`update service.deliveries set lease_owner = $2, lease_until = now() + interval '1 minute' where id = $1`, [id, OWNER]);
  const [{ created_at }] = await run<{ created_at: Date | string }>(`select created_at from service.deliveries where id = $1`, [id]);
  return {
    id,
    messageId: `msg_${name.padEnd(27, '0')}`,
    webhookId: PAUSED,
    accountId: ACCOUNT,
    scheduledAttemptCount: 0,
    recoverRunId: null,
    leaseOwner: OWNER,
    createdAt: new Date(created_at).toISOString(),
  };
}
const stateOf = async (id: string) =>
  (
    await run<{ status: string; parked: boolean; lease_owner: string | null }>(
      `select status, next_attempt_at is null as parked, lease_owner from service.deliveries where id = $1`,
      [id],
    )
  )[0];

test('a capped send asked for once its webhook is paused does not go: the delivery is parked and given back, and the resume makes it due', async () => {
  const admit = await import('../../lib/service/delivery/admit-send');
  await run(
    `insert into service.webhooks (id, account_id, url, event_types, rate_limit, paused_at) values ('${PAUSED}', '${ACCOUNT}', 'http://127.0.0.1:9/p', '{grant.succeeded}', 2, now())`,
  );
  await run(`insert into service.webhook_rates (webhook_id, next_at) values ('${PAUSED}', now())`);
  const claim = await claimedDelivery('unpark-paused1');
  const verdict = await admit.admitSend(claim, 2);
  assert.equal(verdict.admitted, false, 'not admitted while paused');
  assert.ok(!verdict.admitted && verdict.givenBack, 'given back');
  assert.deepEqual(await stateOf(claim.id), { status: 'pending', parked: true, lease_owner: null }, 'parked as a claim parks it');
  const [{ sent }] = await run<{ sent: number }>(`select coalesce(cardinality(sent_at), 0) as sent from service.webhook_rates where webhook_id = $1`, [PAUSED]);
  assert.equal(Number(sent), 0, 'no entry in the limiter’s log');
  await run(`update service.webhooks set paused_at = null where id = $1`, [PAUSED]);
  assert.equal(await unpark(PAUSED), 1, 'the resume finds it parked');
  assert.equal((await stateOf(claim.id)).parked, false);
});

test(
  'a resume under way when a capped send is asked for is waited for, and the send then goes on the resumed webhook',
  { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL: two connections at once' },
  async () => {
    const admit = await import('../../lib/service/delivery/admit-send');
    const pg = (await import('pg')).default;
    await run(`update service.webhooks set paused_at = now() where id = $1`, [PAUSED]);
    await run(`update service.webhook_rates set sent_at = '{}' where webhook_id = $1`, [PAUSED]);
    const claim = await claimedDelivery('unpark-paused2');
    const resume = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await resume.connect();
    try {
      await resume.query('begin');
      await resume.query('update service.webhooks set paused_at = null where id = $1', [PAUSED]);
      // Read without waiting, the admission would see the webhook paused and park the delivery, after the resume's unparking
      // had looked: parked with no resume to come.
      const asked = admit.admitSend(claim, 2);
      const early = await Promise.race([asked.then(() => 'answered'), new Promise<string>((r) => setTimeout(() => r('waiting'), 500).unref())]);
      assert.equal(early, 'waiting', 'the admission waits for the resume');
      await resume.query('commit');
      const verdict = await asked;
      assert.equal(verdict.admitted, true, 'admitted on the resumed webhook');
      assert.equal((await stateOf(claim.id)).status, 'sending', 'still the worker’s, to send');
    } finally {
      await resume.end();
    }
  },
);

test("a cap changed: the backlog slotted at the old cap takes the new cap's slots from now, oldest first; a cap removed: due at their creation time", async () => {
  const rates = await import('../../lib/service/webhooks/rate-schedule');
  const RECAP = `ep_${'unparkrecap'.padEnd(27, '0')}`;
  await run(
    `insert into service.webhooks (id, account_id, url, event_types, rate_limit) values ('${RECAP}', '${ACCOUNT}', 'http://127.0.0.1:9/r', '{grant.succeeded}', 1)`,
  );
  await run(`insert into service.webhook_rates (webhook_id, next_at) values ('${RECAP}', now() + interval '1 hour')`);
  // Three waiting for slots an hour away at the old cap of 1/s, made in another order than their slots'.
  const ids: string[] = [];
  for (const [k, ago] of [30_000, 50_000, 40_000].entries()) {
    const id = await delivery(`unpark-recap${k}`, RECAP, ago, 'pending', `now() + interval '1 hour' + ${k} * interval '1 second'`);
    await run(`update service.deliveries set slot_at = next_attempt_at where id = $1`, [id]);
    ids.push(id);
  }
  const { sql } = await import('drizzle-orm');
  const change = async (rateLimit: number | null) =>
    (await db.getDb()).transaction(async (tx) => {
      await tx.execute(sql`update service.webhooks set rate_limit = ${rateLimit} where id = ${RECAP}`);
      if (rateLimit !== null) await rates.startRateSchedule(tx, RECAP);
      return rates.resetRateSlots(tx, RECAP);
    });
  const [{ now }] = await run<{ now: string }>(`select extract(epoch from now()) * 1000 as now`);
  assert.equal(await change(10), 3);
  const slotted = (await rowsOf(RECAP)).filter((r) => ids.includes(r.id));
  assert.deepEqual(
    slotted.map((r) => r.id),
    [ids[1], ids[2], ids[0]],
    'oldest first',
  );
  assert.ok(
    slotted.every((r) => r.slot !== null && r.next === r.slot),
    `each due at its slot: ${JSON.stringify(slotted)}`,
  );
  assert.ok(slotted[0].slot! - Number(now) < 5_000, `the first slot from now, not an hour away: ${slotted[0].slot! - Number(now)} ms`);
  for (let k = 1; k < slotted.length; k++)
    assert.ok(Math.abs(slotted[k].slot! - slotted[k - 1].slot! - 102) < 2, `102 ms apart at 10/s: ${slotted[k].slot! - slotted[k - 1].slot!}`);
  assert.equal(await change(null), 3);
  const free = (await rowsOf(RECAP)).filter((r) => ids.includes(r.id));
  assert.ok(
    free.every((r) => r.slot === null && r.next === r.created),
    `no cap: due at their creation time: ${JSON.stringify(free)}`,
  );
});
