// The worker's claim and the by-id statements after it against a partitioned service.deliveries (issue 52): a store
// with CLAIM_PARTITIONS daily partitions of deliveries (42 and 372 by default: six weeks, a year), each day holding
// CLAIM_DAY_ROWS settled deliveries with their messages, and a few unsettled ones (due, waiting for a retry days
// old, parked, sending). For each statement, its first runs on a fresh connection (the plans PostgreSQL makes for
// a new session: five custom ones, then a generic one) and its steady state (median and p90 of the runs after).
// The statements are the app's texts where the app sends fixed text (claim, renewal, admission); the query
// builder's by-id updates are written here as it writes them. Not a test: a measuring script.
//   TEST_DATABASE_URL=postgres://… npx tsx tests/bench/claim-partitions.ts   (else the embedded store, PGlite)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPgDatabase, dropPgDatabase } from '../helpers/app';
import { blankPglite } from '../helpers/old-database';
import { byIdStatements, claimOnce, type TConn } from './claim-statements';

const ADMIN = process.env.TEST_DATABASE_URL;
const COUNTS = (process.env.CLAIM_PARTITIONS ?? '42,372').split(',').map(Number);
const DAY_ROWS = Number(process.env.CLAIM_DAY_ROWS ?? (ADMIN ? 500 : 150));
const FIRST = 6; // five custom plans, then the generic one
const STEADY = Number(process.env.CLAIM_STEADY_RUNS ?? 30);
const MIGRATIONS = path.resolve(import.meta.dirname, '../../lib/db/migrations');
const ACCOUNT = '00000000-0000-4000-8000-00000000c1a1';
const WEBHOOKS = 20;
const DAY = 86_400_000;

type TStore = { open: () => Promise<TConn & { close: () => Promise<void> }>; dispose: () => Promise<void> };

async function pgStore(): Promise<TStore> {
  const url = await createPgDatabase(ADMIN!, 'gc_bench_claim');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
  await client.end();
  return {
    open: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return {
        kind: 'postgres' as const,
        q: async <T>(text: string, params: unknown[] = [], name?: string) =>
          (await c.query(name ? { name, text, values: params } : { text, values: params })).rows as T[],
        exec: async (text: string) => void (await c.query(text)),
        close: () => c.end(),
      };
    },
    dispose: () => dropPgDatabase(url),
  };
}

async function pgliteStore(): Promise<TStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-bench-claim-'));
  fs.cpSync(await blankPglite(), dir, { recursive: true });
  const { PGlite, protocol, types } = await import('@electric-sql/pglite');
  const { preparedQueries } = await import('../../lib/db/pglite-prepared');
  const first = new PGlite(dir);
  await first.waitReady;
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  await migrate(drizzle({ client: first }), { migrationsFolder: MIGRATIONS });
  await first.close();
  return {
    open: async () => {
      const c = new PGlite(dir);
      await c.waitReady;
      const prepared = preparedQueries(c, { protocol, types });
      return {
        kind: 'pglite' as const,
        q: async <T>(text: string, params: unknown[] = [], name?: string) => (name ? prepared<T>(text, params, name) : (await c.query<T>(text, params)).rows),
        exec: async (text: string) => void (await c.exec(text)),
        close: () => c.close(),
      };
    },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const dayStart = (t: number) => t - (t % DAY);
const iso = (t: number) => new Date(t).toISOString();
const partName = (t: number) => `deliveries_p${iso(t).slice(0, 10).replaceAll('-', '')}`;

/** `n` daily partitions ending a week ahead (as the app makes them), the settled days behind, and the unsettled few. */
async function seed(c: TConn, n: number): Promise<void> {
  const today = dayStart(Date.now());
  const first = today - (n - 8) * DAY;
  const parts = await c.q<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'service.deliveries'::regclass`,
  );
  for (const p of parts) await c.exec(`alter table service.deliveries detach partition service.${p.name}; drop table service.${p.name}`);
  for (let t = first; t < first + n * DAY; t += DAY)
    await c.exec(`create table service.${partName(t)} partition of service.deliveries for values from ('${iso(t)}') to ('${iso(t + DAY)}')`);
  await c.exec(`
    insert into service.accounts (id, name) values ('${ACCOUNT}', 'bench-claim');
    insert into service.webhooks (id, account_id, url, event_types)
      select 'ep_bench' || lpad(i::text, 23, '0'), '${ACCOUNT}', 'http://127.0.0.1:9/' || i, '{grant.succeeded}' from generate_series(1, ${WEBHOOKS}) i;
    insert into service.webhook_rates (webhook_id, next_at) select id, now() from service.webhooks where account_id = '${ACCOUNT}';`);
  const days = n - 7; // the past days and today hold rows
  for (let d = 0; d < days; d++) {
    const from = first + d * DAY;
    await c.exec(`
      insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
        select 'msg_b' || to_char(${d}, 'FM0000') || lpad(i::text, 22, '0'), '${ACCOUNT}', 'evt_b' || ${d} || '_' || i, 'grant.succeeded', '{"type":"grant.succeeded","data":{}}',
               '${iso(from)}'::timestamptz + (i * interval '1 second') from generate_series(1, ${DAY_ROWS}) i;
      insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, created_at)
        select 'msg_b' || to_char(${d}, 'FM0000') || lpad(i::text, 22, '0'), 'ep_bench' || lpad((1 + i % ${WEBHOOKS})::text, 23, '0'), '${ACCOUNT}', 'grant.succeeded',
               case when i % 20 = 0 then 'failed' else 'success' end, 1, 1, '${iso(from)}'::timestamptz + (i * interval '1 second') from generate_series(1, ${DAY_ROWS}) i;`);
  }
  // The unsettled: due today and yesterday (40), retries waiting (10, five days old), parked (5, ten days old), sending (3).
  const unsettled = (status: string, count: number, daysBack: number, next: string, lease = 'null') => `
    insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
      select 'msg_u${status}${daysBack}_' || i, '${ACCOUNT}', 'evt_u${status}${daysBack}_' || i, 'grant.succeeded', '{"type":"grant.succeeded","data":{}}',
             '${iso(today - daysBack * DAY)}'::timestamptz + i * interval '1 minute' from generate_series(1, ${count}) i;
    insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, lease_until, lease_owner, created_at)
      select 'msg_u${status}${daysBack}_' || i, 'ep_bench' || lpad((1 + i % ${WEBHOOKS})::text, 23, '0'), '${ACCOUNT}', 'grant.succeeded', '${status}', ${next}, ${lease},
             case when ${lease} is null then null else 'other-worker' end, '${iso(today - daysBack * DAY)}'::timestamptz + i * interval '1 minute' from generate_series(1, ${count}) i;`;
  await c.exec(
    [
      unsettled('pending', 20, 0, "now() - interval '1 second'"),
      unsettled('pending', 20, 1, "now() - interval '1 second'"),
      unsettled('pending', 10, Math.min(5, days - 1), "now() + interval '1 hour'"),
      unsettled('pending', 5, Math.min(10, days - 1), 'null'),
      unsettled('sending', 3, 0, 'now()', "now() + interval '1 hour'"),
    ].join(''),
  );
  await c.exec('analyze');
}

const ms = (a: number) => a.toFixed(2);
function summary(runs: number[]): string {
  const first = runs.slice(0, FIRST).map(ms).join(' ');
  const rest = runs.slice(FIRST).sort((a, b) => a - b);
  return `first ${first} | steady median ${ms(rest[Math.floor(rest.length / 2)])} p90 ${ms(rest[Math.floor(rest.length * 0.9)])}`;
}

async function main(): Promise<void> {
  const storeName = ADMIN ? 'postgres' : 'pglite';
  console.log(
    `claim-partitions on ${storeName}: ${DAY_ROWS} settled deliveries a day; uptime: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const n of COUNTS) {
    const store = ADMIN ? await pgStore() : await pgliteStore();
    try {
      let c = await store.open();
      await seed(c, n);
      const rows = await c.q<{ n: number }>(`select count(*)::int as n from service.deliveries`);
      await c.close();
      console.log(`\n${n} partitions, ${rows[0].n} deliveries`);
      // The claim on a fresh connection: each run claims up to 10, which are then made due again (untimed).
      c = await store.open();
      const times: number[] = [];
      for (let i = 0; i < FIRST + STEADY; i++) {
        const t0 = performance.now();
        const claimed = await claimOnce(c);
        times.push(performance.now() - t0);
        if (claimed.length === 0) throw new Error('the claim took nothing');
        await c.q(
          `update service.deliveries set status = 'pending', lease_owner = null, lease_until = null, next_attempt_at = now() - interval '1 second' where lease_owner = 'bench'`,
        );
      }
      console.log(`  claim (limit 10)          ${summary(times)}`);
      await c.close();
      // Each by-id statement on a fresh connection, on a delivery claimed (untimed) just before.
      for (const s of byIdStatements) {
        c = await store.open();
        const runs: number[] = [];
        for (let i = 0; i < FIRST + STEADY; i++) {
          const [claim] = await claimOnce(c, 1);
          const t0 = performance.now();
          const took = await s.run(c, claim); // a number: the statement's own time, past an untimed setup
          runs.push(typeof took === 'number' ? took : performance.now() - t0);
          await c.q(
            `update service.deliveries set status = 'pending', lease_owner = null, lease_until = null, next_attempt_at = now() - interval '1 second' where lease_owner = 'bench' or id = $1`,
            [claim.id],
          );
        }
        console.log(`  ${s.name.padEnd(25)} ${summary(runs)}`);
        await c.close();
      }
    } finally {
      await store.dispose();
    }
  }
}

await main();
