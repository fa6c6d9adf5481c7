// Three statements over one webhook's rows before and after they were bounded (issue 52), on a store with WIDE_DAYS daily
// partitions of messages, deliveries and attempts (372 by default: a year), each day holding WIDE_DAY_ROWS settled
// deliveries of 20 webhooks with an attempt each: the stats' delivery state of a page of 20 webhooks (newest success, newest
// attempt, failing streak: query-delivery-state.ts), a resume's slotting of 50 parked deliveries (rate-schedule.ts
// slotWaiting) and a page of 20 deliveries with their newest attempt (select-deliveries.ts deliveriesAt), each in a
// transaction rolled back. "before" is the statement as it was (its text below, or the builder without the bounds), "after"
// the app's function; runs alternate, and the figures are medians. Not a test: a measuring script, PostgreSQL only.
//   TEST_DATABASE_URL=postgres://… npx tsx tests/bench/webhook-wide.ts
import { performance } from 'node:perf_hooks';
import { openTestDatabase } from '../helpers/in-process-db';

const DAYS = Number(process.env.WIDE_DAYS ?? 372);
const DAY_ROWS = Number(process.env.WIDE_DAY_ROWS ?? 200);
const RUNS = Number(process.env.WIDE_RUNS ?? 15);
const ACCOUNT = '00000000-0000-4000-8000-00000000a1de';
const WEBHOOKS = Array.from({ length: 20 }, (_, i) => `ep_wide${String(i).padStart(23, '0')}`);

const STATES_BEFORE = `select w.id, last_success.at as last_success, last_attempt.at as last_attempt, streak.n as streak
  from unnest($1::text[]) as w(id)
  cross join lateral (select max(created_at) as at from service.attempts where webhook_id = w.id and status = 'success') last_success
  cross join lateral (select max(created_at) as at from service.attempts where webhook_id = w.id) last_attempt
  cross join lateral (select count(*)::int as n from service.attempts
    where webhook_id = w.id and created_at > coalesce(last_success.at, '-infinity'::timestamptz)) streak`;
const SLOT_BEFORE = `with schedule as (
    select r.webhook_id, greatest(r.next_at, now()) as start, interval '1020 milliseconds' / w.rate_limit as step
    from service.webhook_rates r join service.webhooks w on w.id = r.webhook_id
    where r.webhook_id = $1 and w.rate_limit is not null
    for update of r),
  backlog as (
    select d.id, d.created_at, row_number() over (order by d.created_at, d.id) - 1 as k from service.deliveries d
    where d.webhook_id = $1 and d.status = 'pending' and d.next_attempt_at is null),
  due as (
    update service.deliveries d
    set next_attempt_at = coalesce(s.start + b.k * s.step, d.created_at), slot_at = s.start + b.k * s.step, updated_at = now()
    from backlog b left join schedule s on true
    where d.id = b.id and d.created_at = b.created_at and d.webhook_id = $1 and d.status = 'pending' and d.next_attempt_at is null
    returning d.slot_at),
  scheduled as (
    update service.webhook_rates r set next_at = (select max(slot_at) from due) + s.step
    from schedule s where r.webhook_id = s.webhook_id and exists (select 1 from due))
  select count(*)::int as n from due`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!process.env.TEST_DATABASE_URL) throw new Error('PostgreSQL only: set TEST_DATABASE_URL');
  const opened = await openTestDatabase('webhook-wide-bench');
  try {
    const db = opened.client;
    const run = (text: string, params: unknown[] = []) => db.driverRows<Record<string, unknown>>(text, params);
    const manage = await import('../../lib/db/partitions/manage-partitions');
    const { ensureServicePartitions } = await import('../../lib/service/retention/purge-service');
    const { queryDeliveryStates } = await import('../../lib/service/stats/query-delivery-state');
    const { slotWaiting } = await import('../../lib/service/webhooks/rate-schedule');
    const { deliveriesAt, selectDeliveries } = await import('../../lib/service/messages/select-deliveries');
    const schema = await import('../../lib/db/schema/service');
    const { and, inArray, sql } = await import('drizzle-orm');
    await ensureServicePartitions();
    // The empty store's partitions go (a first one from MINVALUE, a week ahead), and a day each is made for the DAYS before
    // today and the week ahead: a year of daily partitions as retention keeps them.
    const made = Date.now();
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    for (const table of ['attempts', 'deliveries', 'messages']) {
      const lease = { table: 'service.leases', name: `partitions-service.${table}` } as const;
      await manage.dropPartitionsBefore({ table: `service.${table}`, interval: 'day', lease }, new Date(today + 365 * 86_400_000));
    }
    for (const table of ['messages', 'deliveries', 'attempts'])
      for (let day = -DAYS; day <= 7; day++) {
        const from = new Date(today + day * 86_400_000);
        const to = new Date(from.getTime() + 86_400_000);
        const name = `service.${table}_p${from.toISOString().slice(0, 10).replaceAll('-', '')}`;
        await run(`create table ${name} partition of service.${table} for values from ('${from.toISOString()}') to ('${to.toISOString()}')`);
      }
    const [{ n: parts }] = await run(`select count(*)::int as n from pg_inherits where inhparent = 'service.deliveries'::regclass`);
    console.log(`${parts} deliveries partitions made in ${Math.round((Date.now() - made) / 1000)} s`);
    await run(`insert into service.accounts (id, name) values ($1, 'wide bench')`, [ACCOUNT]);
    await run(
      `insert into service.webhooks (id, account_id, url, event_types) select w, $1, 'http://127.0.0.1:9/', '{grant.succeeded}' from unnest($2::text[]) w`,
      [ACCOUNT, WEBHOOKS],
    );
    // Each day before today: DAY_ROWS settled deliveries over the 20 webhooks, an attempt each (one in five failed). Today: 50
    // pending deliveries of the first webhook, to park and resume.
    // A day a statement: one over every day at once locks each partition and index of the three tables, and a year of them
    // overflows the server's lock table (max_locks_per_transaction × connections) that other sessions share.
    const seeded = Date.now();
    for (let day = 1; day <= DAYS; day++)
      await run(
        `with m as (
         insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
         select 'msg_wide_' || d || '_' || i, $1, 'evt_wide_' || d || '_' || i, 'grant.succeeded', '{}',
                date_trunc('day', now()) - d * interval '1 day' + i * interval '1 second' + interval '1 hour'
           from (select $2::int as d) d, generate_series(1, $3::int) i
         returning id, created_at),
       d as (
         insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
         select id, ($4::text[])[1 + abs(hashtext(id)) % 20], $1, 'grant.succeeded', 'delivered', 1, created_at from m
         returning id, message_id, webhook_id, created_at)
       insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type)
       select 'atmpt_' || d.message_id, d.id, d.message_id, d.webhook_id, $1, 'http://127.0.0.1:9/', d.created_at + interval '1 second',
              case when abs(hashtext(d.message_id || 's')) % 5 = 0 then 'failed' else 'success' end, 200, 10, 'scheduled' from d`,
        [ACCOUNT, day, DAY_ROWS, WEBHOOKS],
      );
    await run(
      `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
                  select 'msg_park_' || i, $1, 'evt_park_' || i, 'grant.succeeded', '{}', now() - i * interval '1 second' from generate_series(1, 50) i
                  returning id, created_at)
       insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, created_at) select id, $2, $1, 'grant.succeeded', 'pending', created_at from m`,
      [ACCOUNT, WEBHOOKS[0]],
    );
    await run('analyze');
    console.log(`seeded in ${Math.round((Date.now() - seeded) / 1000)} s`);

    const conn = await db.getDb();
    type TTx = Parameters<Parameters<typeof conn.transaction>[0]>[0];
    /** How long `fn` takes, after `setup`, in a transaction rolled back. */
    const timed = async (fn: (tx: TTx) => Promise<unknown>, setup?: (tx: TTx) => Promise<unknown>) => {
      let ms = 0;
      await conn
        .transaction(async (tx) => {
          await setup?.(tx);
          const t = performance.now();
          await fn(tx);
          ms = performance.now() - t;
          tx.rollback();
        })
        .catch((e: Error) => {
          if (!/rollback/i.test(e.message)) throw e;
        });
      return ms;
    };
    const park = (tx: TTx) =>
      db.queryRows(
        tx,
        db.sql`update service.deliveries set next_attempt_at = null where webhook_id = ${WEBHOOKS[0]} and created_at > now() - interval '1 day' and status = 'pending'`,
      );
    const raw = (tx: TTx, text: string, params: unknown[]) =>
      db.queryRows(tx, db.sql.raw(text.replace(/\$(\d+)/g, (_, k: string) => `'{${String(params[Number(k) - 1])}}'`)));
    const [[before], [after]] = [
      await raw(conn as unknown as TTx, STATES_BEFORE, [WEBHOOKS.join(',')]),
      [...(await queryDeliveryStates(conn, WEBHOOKS, true)).values()],
    ];
    console.log('the same answer, first webhook:', JSON.stringify(before), JSON.stringify(after));
    // A page of 20 of the second webhook's newest deliveries with their newest attempt (deliveriesAt), without and with the
    // attempts' bounds: before, the lateral's bound was the row's created_at, known at run time only.
    const keys = (await run(`select id, created_at::text as created_at from service.deliveries where webhook_id = $1 order by created_at desc limit 20`, [
      WEBHOOKS[1],
    ])) as { id: string; created_at: string }[];
    const [d, m] = [schema.deliveries, schema.messages];
    const madeAt = (column: typeof d.createdAt | typeof m.createdAt) =>
      sql`${column} in (${sql.join(
        keys.map((k) => sql`${k.created_at}::timestamptz`),
        sql`, `,
      )})`;
    const pageBefore = (tx: TTx) =>
      selectDeliveries(tx).where(
        and(
          inArray(
            d.id,
            keys.map((k) => k.id),
          ),
          madeAt(d.createdAt),
          madeAt(m.createdAt),
        ),
      );
    const figures: Record<string, number[]> = {
      'states before': [],
      'states after': [],
      'slotting before': [],
      'slotting after': [],
      'page before': [],
      'page after': [],
    };
    for (let i = 0; i < RUNS; i++) {
      figures['states before'].push(await timed((tx) => raw(tx, STATES_BEFORE, [WEBHOOKS.join(',')])));
      figures['states after'].push(await timed((tx) => queryDeliveryStates(tx, WEBHOOKS, true)));
      figures['slotting before'].push(await timed((tx) => raw(tx, SLOT_BEFORE.replaceAll('$1', `'${WEBHOOKS[0]}'`), []), park));
      figures['slotting after'].push(await timed((tx) => slotWaiting(tx, WEBHOOKS[0], 'parked'), park));
      figures['page before'].push(await timed((tx) => pageBefore(tx)));
      figures['page after'].push(await timed((tx) => deliveriesAt(tx, keys)));
    }
    for (const [name, xs] of Object.entries(figures))
      console.log(`${name}: median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}, ${xs.length} runs)`);
  } finally {
    await opened.close();
  }
}

await main();
