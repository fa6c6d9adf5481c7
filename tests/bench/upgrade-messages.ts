// What migration 0040 (service.messages partitioned) costs a large PostgreSQL store: a script, not a test. It makes a database
// of the release before (migrations up to 0039), seeds BENCH_UPGRADE_MESSAGES messages (1M) of one account, each with one
// delivery, then runs 0040's statements in one transaction, as the app's migrator does, timing each, while a second connection
// writes a grant-like message and its delivery every 20 ms (as ingest does: messages, then deliveries). With
// BENCH_UPGRADE_PREBUILD=1 the two indexes the migration builds are built first, CONCURRENTLY, under their names, while the
// inserts go on (docs/OPERATIONS.md). It prints the figures and drops its database.
//   TEST_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npx tsx tests/bench/upgrade-messages.ts
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { createPgDatabase, dropPgDatabase } from '../helpers/app';
import { migrationsUpTo } from '../helpers/old-database';

const N = Number(process.env.BENCH_UPGRADE_MESSAGES ?? 1_000_000);
const PREBUILD = process.env.BENCH_UPGRADE_PREBUILD === '1';
const ACCOUNT = '00000000-0000-4000-8000-0000000e0040';
const WEBHOOK = `ep_${'upgrade0040'.padEnd(27, '0')}`;
const admin = process.env.TEST_DATABASE_URL;
if (!admin) throw new Error('TEST_DATABASE_URL: a PostgreSQL server to make a scratch database on');

const url = await createPgDatabase(admin, 'gc_bench_upgrade');
const main = new pg.Client({ connectionString: url });
const side = new pg.Client({ connectionString: url });
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;
try {
  await main.connect();
  await side.connect();
  const folder = migrationsUpTo('0039_deliveries_partitioned');
  try {
    await migrate(drizzle({ client: main }), { migrationsFolder: folder });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }

  // The seed, with the messages' secondary indexes, the trigger and the foreign key off, then back (as a store of the release before has them).
  let t0 = process.hrtime.bigint();
  await main.query(`set maintenance_work_mem = '512MB'`);
  await main.query(`insert into service.accounts (id, name) values ($1, 'upgrade-0040')`, [ACCOUNT]);
  await main.query(`insert into service.webhooks (id, account_id, url, event_types) values ($1, $2, 'http://127.0.0.1:9/', '{grant.succeeded}')`, [
    WEBHOOK,
    ACCOUNT,
  ]);
  const { rows: defs } = await main.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes where schemaname = 'service' and tablename = 'messages' and indexname <> 'messages_pkey'`,
  );
  for (const d of defs) await main.query(`drop index service."${d.name}"`);
  await main.query(`alter table service.deliveries drop constraint deliveries_message_id_messages_id_fk`);
  await main.query(`alter table service.messages disable trigger messages_payload_words`);
  for (let from = 0; from < N; from += 100_000) {
    await main.query(
      `with m as (
         insert into service.messages (id, account_id, event_id, event_type, payload, payload_json, payload_words, tags, created_at)
         select 'msg_' || lpad(g::text, 27, '0'), $1, 'evt_' || lpad(g::text, 27, '0'), 'grant.succeeded', b.j, b.j::jsonb,
                to_tsvector('simple', b.j), array['grant:' || g, 'donor:donor' || g || '@example.org'],
                now() - interval '60 days' + g * (interval '60 days' / $3::int)
           from generate_series($4::int + 1, $4::int + 100000) g,
                lateral (select json_build_object('type', 'grant.succeeded', 'data', json_build_object('id', g, 'amount', 2500 + g % 1000,
                  'email', 'donor' || g || '@example.org', 'firstName', 'Ada', 'lastName', 'Lovelace', 'note', repeat('gift ', 40)))::text as j) b
         returning id, created_at)
       insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
       select id, $2, $1, 'grant.succeeded', 'success', 1, created_at from m`,
      [ACCOUNT, WEBHOOK, N, from],
    );
  }
  await main.query(`alter table service.messages enable trigger messages_payload_words`);
  for (const d of defs) await main.query(d.def);
  await main.query(
    `alter table service.deliveries add constraint deliveries_message_id_messages_id_fk foreign key (message_id) references service.messages (id)`,
  );
  await main.query('vacuum analyze service.messages');
  await main.query('vacuum analyze service.deliveries');
  const { rows: size } = await main.query<{ s: string }>(`select pg_size_pretty(pg_total_relation_size('service.messages')) as s`);
  console.log(`seeded ${N} messages (${size[0].s} with indexes) and ${N} deliveries in ${(ms(t0) / 1000).toFixed(1)} s`);

  // Ingest from the side connection: a message and its delivery every 20 ms, each timed, as a grant's statement writes them.
  const waits: { at: number; ms: number }[] = [];
  let stop = false;
  let k = 0;
  const start = process.hrtime.bigint();
  const ingest = (async () => {
    while (!stop) {
      const t = process.hrtime.bigint();
      k++;
      await side.query(
        `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, payload_json, created_at)
           values ($1, $2, $3, 'grant.succeeded', '{"n":1}', '{"n":1}', date_trunc('milliseconds', clock_timestamp())) returning id, created_at)
         insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
         select id, $4, $2, 'grant.succeeded', 'success', null, created_at from m`,
        [`msg_live${String(k).padStart(23, '0')}`, ACCOUNT, `evt_live${String(k).padStart(23, '0')}`, WEBHOOK],
      );
      waits.push({ at: Number(t - start) / 1e6, ms: ms(t) });
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 5000));

  if (PREBUILD) {
    t0 = process.hrtime.bigint();
    await main.query(`create unique index concurrently messages_p0_pkey on service.messages (id, created_at)`);
    await main.query(`create index concurrently messages_p0_account_id_event_id_index on service.messages (account_id, event_id)`);
    console.log(`prebuilt the two indexes CONCURRENTLY in ${(ms(t0) / 1000).toFixed(2)} s`);
  }

  const sql = fs.readFileSync(path.resolve(import.meta.dirname, '../../lib/db/migrations/0040_messages_partitioned.sql'), 'utf8');
  const statements = sql.split('--> statement-breakpoint').map((s) => s.trim());
  const began = Number(process.hrtime.bigint() - start) / 1e6;
  t0 = process.hrtime.bigint();
  await main.query('begin');
  for (const s of statements) {
    const t = process.hrtime.bigint();
    await main.query(s);
    const took = ms(t);
    if (took > 50)
      console.log(
        `  ${took.toFixed(0).padStart(6)} ms  ${s
          .replace(/^(--.*\n)+/, '')
          .split('\n')[0]
          .slice(0, 110)}`,
      );
  }
  await main.query('commit');
  const locked = ms(t0);
  console.log(`migration 0040: ${(locked / 1000).toFixed(2)} s from its first statement to its commit`);
  await new Promise((r) => setTimeout(r, 5000));
  stop = true;
  await ingest;
  const during = waits.filter((w) => w.at >= began - 20 && w.at <= began + locked);
  const all = waits.map((w) => w.ms);
  console.log(
    `ingest (a message and its delivery every 20 ms): ${waits.length} inserts, p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms, ` +
      `slowest ${Math.max(...all).toFixed(0)} ms; sent during the migration: ${during.map((w) => w.ms.toFixed(0)).join(', ')} ms`,
  );
  const { rows: parts } = await main.query<{ n: string }>(`select count(*)::text as n from pg_inherits where inhparent = 'service.messages'::regclass`);
  console.log(`service.messages: ${parts[0].n} partitions`);
} finally {
  await main.end().catch(() => {});
  await side.end().catch(() => {});
  await dropPgDatabase(url);
}
