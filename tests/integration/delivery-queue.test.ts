import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TClaimModule from '../../lib/service/delivery/claim';

// The delivery queue (migration 0041, lib/service/delivery/claim.ts) on a real database opened by the app's own code
// (PGlite, or PostgreSQL with TEST_DATABASE_URL); no app is started. service.delivery_queue is the deliveries not
// settled, kept by triggers on the partitioned service.deliveries whatever writes them; the claim finds the due ones
// there and plans only their partitions of service.deliveries, however many the table has.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let claims: typeof TClaimModule;
const ACCOUNT = '00000000-0000-4000-8000-0000000de1a1';
const WEBHOOK = `ep_${'deliveryqueue'.padEnd(27, '0')}`;
const DAY = 86_400_000;

before(async () => {
  opened = await openTestDatabase('delivery-queue');
  db = opened.client;
  claims = await import('../../lib/service/delivery/claim');
  await db.driverRows(`insert into service.accounts (id, name) values ('${ACCOUNT}', 'delivery-queue')`, []);
  await db.driverRows(
    `insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/q', '{grant.succeeded}')`,
    [],
  );
  // Ten more partitions, a month ahead and after, so that a plan of every partition shows.
  const start = Math.floor(Date.now() / DAY) * DAY + 30 * DAY;
  for (let i = 0; i < 10; i++) {
    const [from, to] = [new Date(start + i * DAY).toISOString(), new Date(start + (i + 1) * DAY).toISOString()];
    await db.driverRows(`create table service.deliveries_qtest${i} partition of service.deliveries for values from ('${from}') to ('${to}')`, []);
  }
});
after(async () => {
  await opened?.close();
});

const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);

/** A message and its delivery to the test's webhook, made `ago` ms before now, in `status`, due at `due` (SQL). */
async function delivery(name: string, status: string, due: string, ago = 0): Promise<{ id: string; createdAt: string }> {
  const message = `msg_${name.padEnd(27, '0')}`;
  await run(
    `insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
     values ($1, $2, $3, 'grant.succeeded', '{}', now() - $4::int * interval '1 millisecond')`,
    [message, ACCOUNT, `evt_${name}`, ago],
  );
  const [row] = await run<{ id: string; created_at: Date | string }>(
    `insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
     select id, $2, account_id, event_type, $3, ${due}, created_at from service.messages where id = $1 returning id, created_at`,
    [message, WEBHOOK, status],
  );
  return { id: row.id, createdAt: new Date(row.created_at).toISOString() };
}

/** The queue as it is, and the deliveries not settled as they are: the two must read the same. */
async function both(): Promise<{ queue: string[]; unsettled: string[] }> {
  const columns = `id || ' ' || status || ' ' || coalesce(next_attempt_at::text, '-') || ' ' || coalesce(lease_until::text, '-') || ' ' || created_at::text as r`;
  const queue = await run<{ r: string }>(`select ${columns} from service.delivery_queue where webhook_id = $1 order by id`, [WEBHOOK]);
  const unsettled = await run<{ r: string }>(
    `select ${columns} from service.deliveries where webhook_id = $1 and status in ('pending', 'sending') order by id`,
    [WEBHOOK],
  );
  return { queue: queue.map((x) => x.r), unsettled: unsettled.map((x) => x.r) };
}

test('the queue is the deliveries not settled, whatever writes them: enqueued, claimed, renewed, parked, settled, re-queued, deleted', async () => {
  const a = await delivery('queue-a', 'pending', 'now()');
  const b = await delivery('queue-b', 'success', 'null');
  await delivery('queue-c', 'pending', `now() + interval '1 hour'`, 3 * DAY);
  const same = async (why: string) => {
    const { queue, unsettled } = await both();
    assert.deepEqual(queue, unsettled, why);
    return queue.length;
  };
  assert.equal(await same('inserted: the pending ones queued, not the delivered one'), 2);
  await run(`update service.deliveries set status = 'sending', lease_owner = 'w', lease_until = now() + interval '30 seconds' where id = $1`, [a.id]);
  await same('claimed: sending, with its lease');
  await run(`update service.deliveries set lease_until = now() + interval '60 seconds' where id = $1`, [a.id]);
  await same('renewed');
  await run(`update service.deliveries set status = 'pending', next_attempt_at = null, lease_owner = null, lease_until = null where id = $1`, [a.id]);
  await same('parked: pending with no next attempt');
  await run(`update service.deliveries set status = 'success', next_attempt_at = null where id = $1`, [a.id]);
  assert.equal(await same('delivered: gone from the queue'), 1);
  await run(`update service.deliveries set attempt_count = attempt_count + 1 where id = $1`, [a.id]);
  await run(`update service.deliveries set status = 'pending', next_attempt_at = now(), recover_run_id = 'rr_x' where id = $1`, [b.id]);
  assert.equal(await same('a delivered one re-queued (a recover run): back in the queue'), 2);
  await run(`update service.deliveries set status = 'failed', next_attempt_at = null where id = $1`, [b.id]);
  await run(`delete from service.deliveries where webhook_id = $1`, [WEBHOOK]);
  assert.equal(await same('failed, then deleted: none left'), 0);
});

test('one statement writing several deliveries, across partitions and in several of its parts, leaves the queue as they read', async () => {
  // The triggers run once a statement (migration 0043) over the rows it wrote: a claim's or an outcome batch's many, and a
  // claim's several updating parts (parked, waiting, claimed) in one.
  const names = ['multi-a', 'multi-b', 'multi-c', 'multi-d'];
  await run(
    `insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
     select 'msg_' || rpad(n, 27, '0'), $1, 'evt_' || n, 'grant.succeeded', '{}', now() - (i % 2) * interval '3 days'
     from unnest($2::text[]) with ordinality as x(n, i)`,
    [ACCOUNT, names],
  );
  const inserted = await run<{ id: string; event_id: string }>(
    `insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
     select id, $2, account_id, event_type, case when event_id = 'evt_multi-d' then 'success' else 'pending' end,
            case when event_id = 'evt_multi-d' then null else now() end, created_at
     from service.messages where id = any($1::text[])
     returning id, (select event_id from service.messages m where m.id = message_id and m.created_at = deliveries.created_at)`,
    [names.map((n) => `msg_${n.padEnd(27, '0')}`), WEBHOOK],
  );
  const id = Object.fromEntries(inserted.map((r) => [r.event_id.slice(4), r.id]));
  const { queue, unsettled } = await both();
  assert.equal(queue.length, 3, 'one insert of four: the three pending queued, not the delivered one');
  assert.deepEqual(queue, unsettled);

  // One statement, two parts updating deliveries: a claimed, b delivered, c made due later, d (delivered) counted again.
  await run(
    `with claimed as (
       update service.deliveries set status = 'sending', lease_owner = 'w', lease_until = now() + interval '30 seconds' where id = $1),
     settled as (
       update service.deliveries set status = case when id = $2 then 'success' else status end,
         next_attempt_at = case when id = $3 then now() + interval '1 hour' else next_attempt_at end,
         attempt_count = attempt_count + 1
       where id = any(array[$2, $3, $4]::uuid[]))
     select 1`,
    [id['multi-a'], id['multi-b'], id['multi-c'], id['multi-d']],
  );
  const after = await both();
  assert.deepEqual(after.queue, after.unsettled, 'the claimed one sending, the delivered one gone, the later one due later');
  assert.deepEqual(after.queue.map((r) => r.split(' ').slice(0, 2).join(' ')).sort(), [`${id['multi-a']} sending`, `${id['multi-c']} pending`].sort());

  await run(`delete from service.deliveries where webhook_id = $1`, [WEBHOOK]);
  assert.deepEqual(await both(), { queue: [], unsettled: [] }, 'one delete of all: none left');
});

test('a connection whose first statement settled many deliveries keeps the queue by its key after: never a scan of the queue', async () => {
  // The triggers' statements are planned once a connection (PL/pgSQL keeps their plans), with the size of the statement
  // at hand: planned at a statement of many rows while the queue is small, a join would read the whole queue for
  // every later statement however large the queue has grown (a backlog). They reach the queue by its key whatever
  // the sizes (migration 0044); pg_stat_xact_user_tables counts the transaction's scans of it.
  const handle = await db.getDb();
  await handle.transaction(async (tx) => {
    const q = <T = Record<string, unknown>>(text: string) => db.queryRows<T>(tx, db.sql.raw(text));
    await q('discard plans');
    await q(`insert into service.messages (id, account_id, event_id, event_type, payload)
             select 'msg_scan' || lpad(g::text, 23, '0'), '${ACCOUNT}', 'evt_scan' || g, 'grant.succeeded', '{}' from generate_series(1, 300) g`);
    await q(`insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
             select id, '${WEBHOOK}', account_id, event_type, case when event_id < 'evt_scan3' then 'success' else 'pending' end,
                    case when event_id < 'evt_scan3' then null else now() end, created_at
             from service.messages where id like 'msg_scan%'`);
    // The connection's first update of deliveries: many settled ones, counted again (the queue holds the pending few).
    await q(`update service.deliveries set attempt_count = attempt_count + 1 where webhook_id = '${WEBHOOK}' and status = 'success'`);
    const scans = async () =>
      Number((await q<{ n: number | string }>(`select seq_scan as n from pg_stat_xact_user_tables where relid = 'service.delivery_queue'::regclass`))[0].n);
    const before = await scans();
    await q(`update service.deliveries set status = 'sending', lease_owner = 'w', lease_until = now() + interval '30 seconds'
             where id in (select id from service.deliveries where webhook_id = '${WEBHOOK}' and status = 'pending' limit 2)`);
    await q(`update service.deliveries set status = 'success', next_attempt_at = null where webhook_id = '${WEBHOOK}' and status = 'sending'`);
    await q(
      `delete from service.deliveries where webhook_id = '${WEBHOOK}' and status = 'pending' and message_id in (select id from service.messages where event_id = 'evt_scan300')`,
    );
    assert.equal((await scans()) - before, 0, 'a claim, a settling and a delete after it: no scan of the queue');
    await q(`delete from service.deliveries where webhook_id = '${WEBHOOK}'`);
  });
  assert.deepEqual(await both(), { queue: [], unsettled: [] });
});

test('a claim takes the due deliveries from the queue and plans only their partitions; a queue row without its delivery leaves', async () => {
  const due = await delivery('claim-due', 'pending', 'now()', 2 * DAY);
  const later = await delivery('claim-later', 'pending', `now() + interval '1 hour'`);
  // A queue row whose delivery went without its trigger (its partition dropped under it); of the due one's time.
  const orphan = { id: '00000000-0000-4000-8000-0000000de1a9', createdAt: due.createdAt };
  await run(
    `insert into service.delivery_queue (id, created_at, webhook_id, status, next_attempt_at) values ($1, $2, $3, 'pending', now() - interval '1 minute')`,
    [orphan.id, orphan.createdAt, WEBHOOK],
  );
  const [part] = await run<{ t: string }>(`select tableoid::regclass::text as t from service.deliveries where id = $1`, [due.id]);
  const partitions = await run<{ n: number }>(`select count(*)::int as n from pg_inherits where inhparent = 'service.deliveries'::regclass`);
  assert.ok(partitions[0].n >= 12, `${partitions[0].n} partitions`);

  // Each claim's plan for these candidates (EXPLAIN of the prepared statement with their values; nothing runs): the one
  // with a paused or capped webhook among them, and the plain one.
  const params = `30000, 'plan', 10, '{}'::text[], array['${due.id}', '${orphan.id}']::uuid[], array['${due.createdAt}', '${orphan.createdAt}']::timestamptz[]`;
  for (const [name, statement] of Object.entries({ CLAIM: claims.CLAIM, CLAIM_PLAIN: claims.CLAIM_PLAIN })) {
    const plan = await db.getDb().then((handle) =>
      handle.transaction(async (tx) => {
        await db.queryRows(tx, db.sql.raw(`prepare claim_plan(int, text, int, text[], uuid[], timestamptz[]) as ${statement}`));
        const rows = await db.queryRows<Record<string, string>>(tx, db.sql.raw(`explain (format text) execute claim_plan(${params})`));
        await db.queryRows(tx, db.sql.raw('deallocate claim_plan'));
        return rows.map((r) => Object.values(r)[0]).join('\n');
      }),
    );
    const read = [...new Set([...plan.matchAll(/\bon (?:service\.)?(deliveries_\w+)/g)].map((m) => m[1]))];
    assert.deepEqual(read, [part.t.replace(/^service\./, '')], `${name} reads its candidates' partition alone:\n${plan}`);
  }

  const claimed = await claims.claimDeliveries({ owner: 'test-owner', limit: 10, leaseMs: 30_000 });
  assert.deepEqual(
    claimed.jobs.map((j) => [j.claim.id, j.claim.createdAt]),
    [[due.id, due.createdAt]],
    'the due one, with its created_at',
  );
  const dueIn = claimed.nextDueInMs ?? 0;
  assert.ok(dueIn > 3_500_000 && dueIn <= 3_600_000, `the next falls due in an hour (${dueIn} ms)`);
  const queued = await run<{ id: string; status: string }>(`select id, status from service.delivery_queue where webhook_id = $1 order by status`, [WEBHOOK]);
  assert.deepEqual(
    queued.map((q) => [q.id, q.status]),
    [
      [later.id, 'pending'],
      [due.id, 'sending'],
    ],
    'the orphan left, the claimed one sending',
  );
});

test('a claim told that no candidate is paused or capped takes none paused since: the next claim parks it', async () => {
  const due = await delivery('plain-paused', 'pending', 'now()');
  const candidates = await run<{ id: string; created_at: Date | string; gated: boolean }>(claims.CANDIDATES, [10, []]);
  const mine = candidates.find((c) => c.id === due.id);
  assert.equal(mine?.gated, false, 'read while its webhook is neither paused nor capped');
  await run(`update service.webhooks set paused_at = now() where id = $1`, [WEBHOOK]);
  try {
    // The plain claim with what CANDIDATES read before the pause.
    const params = [30_000, 'plain-owner', 10, [], candidates.map((c) => c.id), candidates.map((c) => new Date(c.created_at).toISOString())];
    const rows = await run<{ id: string | null; next_due_ms: number | string }>(claims.CLAIM_PLAIN, params);
    assert.deepEqual(
      rows.filter((r) => r.id !== null),
      [],
      'nothing of the paused webhook taken',
    );
    assert.ok(Number(rows[0].next_due_ms) <= 0, `the one left is still due (${rows[0].next_due_ms} ms)`);
    const claimed = await claims.claimDeliveries({ owner: 'test-owner', limit: 10, leaseMs: 30_000 });
    assert.deepEqual(claimed.jobs, [], 'the next claim sends nothing of it');
    const [row] = await run<{ status: string; next_attempt_at: Date | null }>(`select status, next_attempt_at from service.delivery_queue where id = $1`, [
      due.id,
    ]);
    assert.deepEqual([row.status, row.next_attempt_at], ['pending', null], 'parked by the full claim, told it is paused');
  } finally {
    await run(`update service.webhooks set paused_at = null where id = $1`, [WEBHOOK]);
  }
});

test('what queues deliveries in a transaction wakes the workers once, after its commit, however the transaction was opened; a rollback wakes nobody', async () => {
  const { listenDb } = await import('../../lib/db/listen');
  const { DELIVERIES_CHANNEL } = await import('../../lib/service/delivery/enqueue');
  const { wakingTransaction } = await import('../../lib/service/delivery/wake-workers');
  const { emitEvent } = await import('../../lib/service/events/emit-event');
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let heard = 0;
  const unlisten = await listenDb(DELIVERIES_CHANNEL, () => heard++);
  try {
    const event = { accountId: ACCOUNT, eventType: 'grant.succeeded' as const, payload: { id: 'wake' }, tags: ['wake-test'] };
    let before = -1;
    const emitted = await wakingTransaction(async (tx) => {
      const e = await emitEvent(tx, event);
      await pause(300);
      before = heard;
      return e;
    });
    assert.equal(before, 0, 'nothing heard before the commit');
    const [queued] = await run<{ n: number }>(`select count(*)::int as n from service.deliveries where message_id = $1`, [emitted.messageId]);
    assert.equal(queued.n, 1, 'its delivery queued');
    for (const deadline = Date.now() + 5000; heard < 1 && Date.now() < deadline;) await pause(10);
    await pause(300);
    assert.equal(heard, 1, 'one wake-up, after the commit');

    heard = 0;
    await assert.rejects(
      wakingTransaction(async (tx) => {
        await emitEvent(tx, event);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    await pause(300);
    assert.equal(heard, 0, 'a rolled-back transaction wakes nobody');

    // A transaction opened without wakingTransaction (a manual attempt's once): a NOTIFY in it, heard at its commit, not lost.
    heard = 0;
    before = -1;
    await (
      await db.getDb()
    ).transaction(async (tx) => {
      await emitEvent(tx, event);
      await pause(300);
      before = heard;
    });
    assert.equal(before, 0, 'nothing heard before the commit');
    for (const deadline = Date.now() + 5000; heard < 1 && Date.now() < deadline;) await pause(10);
    await pause(300);
    assert.equal(heard, 1, 'one wake-up, at the commit');
  } finally {
    await unlisten();
  }
});
