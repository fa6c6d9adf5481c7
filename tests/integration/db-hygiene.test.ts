import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';

// What the database keeps and what its errors say, on a real database opened by the app's own
// code (a fresh PGlite directory, or a PostgreSQL database with TEST_DATABASE_URL).

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
// Node's warnings from the start (a deprecation is told once a process): the JIT test reads them.
const warnings: string[] = [];
process.on('warning', (w) => warnings.push(`${w.name}: ${w.message}`));
let db: TTestDb;
before(async () => {
  opened = await openTestDatabase('hygiene');
  db = opened.client;
});
after(async () => {
  await opened?.close();
});

test('throttle rows whose window has ended are deleted as attempts come in: the table stays bounded', async () => {
  const { sql } = await import('drizzle-orm');
  const { reserveAttempt } = await import('../../lib/db/fixed-window');
  const schema = await import('../../lib/db/schema/service');
  const handle = await db.getDb();
  const windowMs = 60_000;
  // A spray of 200 keys an hour ago, and one still in its window.
  await handle.execute(sql`insert into service.token_failures (key, count, window_start)
    select 'sprayed-' || i, 3, now() - interval '1 hour' from generate_series(1, 200) as i`);
  assert.equal(await reserveAttempt(schema.tokenFailures, [{ key: 'current', max: 10 }], windowMs), 0);
  assert.equal(await reserveAttempt(schema.tokenFailures, [{ key: 'later', max: 10 }], windowMs), 0);
  const rows = await db.queryRows<{ key: string; count: number }>(handle, sql`select key, count from service.token_failures order by key`);
  assert.deepEqual(
    rows.map((r) => [r.key, Number(r.count)]),
    [
      ['current', 1],
      ['later', 1],
    ],
  );
});

test('a failed query is logged with its SQL but without its parameters or the values the database quotes', async () => {
  const { sql } = await import('drizzle-orm');
  const { describeForLog, dataExceptionDetail } = await import('../../lib/http/log-error');
  const handle = await db.getDb();
  const secret = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
  const donor = 'ada.lovelace@example.org';
  const failures: unknown[] = [];
  for (const query of [
    sql`select ${secret}::int as n`, // the database quotes the value: invalid input syntax for type integer: "whsec_…"
    sql`select ${`${donor}\u0000`}::text as t`, // a NUL: invalid byte sequence
    sql`insert into console.settings (key, value) values (${donor}, ${secret}), (${donor}, ${secret})`, // unique: Key (key)=(…)
  ]) {
    failures.push(
      await handle.execute(query).then(
        () => assert.fail('the query should fail'),
        (err: unknown) => err,
      ),
    );
  }
  for (const err of failures) {
    for (const shown of [describeForLog(err), inspect(err, { depth: 5 }), String((err as Error).stack)]) {
      assert.ok(!shown.includes(secret), `the secret is shown: ${shown.slice(0, 400)}`);
      assert.ok(!shown.includes(donor), `the donor is shown: ${shown.slice(0, 400)}`);
    }
    assert.match(describeForLog(err), /database error [0-9A-Z]{5}: .*\n {2}query: (select|insert)/);
    assert.ok(Array.isArray((err as { params?: unknown }).params), 'the parameters stay on the error for code that asks');
  }
  assert.equal(dataExceptionDetail(failures[0]), 'A value in the request is out of the range this service accepts.');
  assert.equal(dataExceptionDetail(failures[1]), 'A value in the request holds a character that cannot be stored.');
  assert.equal(dataExceptionDetail(failures[2]), null, "a unique violation is not the request's bad value");
});

test(
  'the app connects with JIT off, set on each connection rather than as a startup option a pooler would refuse',
  { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only' },
  async () => {
    const { sql } = await import('drizzle-orm');
    assert.doesNotMatch(process.env.DATABASE_URL ?? '', /jit/, 'the URL itself asks nothing of JIT');
    const handle = await db.getDb();
    // Every connection of the pool, not only the first: ten reads at once take ten.
    const rows = await Promise.all(
      Array.from({ length: 10 }, () => db.queryRows<{ jit: string }>(handle, sql`select current_setting('jit') as jit, pg_sleep(0.05)`)),
    );
    assert.deepEqual(new Set(rows.map((r) => r[0].jit)), new Set(['off']));
    // Set before the pool hands a connection out (pg-pool's onConnect), not queued beside the first query: that is
    // deprecated, and node-postgres says so on stderr, where the CLI's output is read (cli-postgres.test).
    assert.deepEqual(
      warnings.filter((w) => /client\.query\(\)/.test(w)),
      [],
    );
  },
);

test('idempotency keys past their 24-hour window are deleted by the purge a batch at a time, oldest first; a key in its window stays', async () => {
  const { sql } = await import('drizzle-orm');
  const { idempotencyKeysStep } = await import('../../lib/service/retention/expire-idempotency-keys');
  const handle = await db.getDb();
  await handle.execute(sql`insert into service.idempotency_keys (connect_id, key, request_hash, status_code, body, created_at)
    select 'cn_hygiene', 'old-' || i, 'h', 201, '{}'::jsonb, now() - interval '1 day' - i * interval '1 hour' from generate_series(1, 5) as i
    union all select 'cn_hygiene', 'fresh', 'h', 201, '{"id":"kept"}'::jsonb, now() - interval '23 hours'`);
  const keys = async () =>
    (await db.queryRows<{ key: string }>(handle, sql`select key from service.idempotency_keys where connect_id = 'cn_hygiene' order by key`)).map((r) => r.key);
  const step = idempotencyKeysStep();
  assert.equal(step.what, 'idempotency_keys');
  assert.equal(await step.run(2, new Map()), 2);
  assert.deepEqual(await keys(), ['fresh', 'old-1', 'old-2', 'old-3'], 'the two oldest went first');
  assert.equal(await step.run(10, new Map()), 3);
  assert.equal(await step.run(10, new Map()), 0);
  assert.deepEqual(await keys(), ['fresh']);
  const [progress] = await db.queryRows<{ purged: number }>(handle, sql`select purged from service.retention_progress where what = 'idempotency_keys'`);
  assert.equal(Number(progress.purged), 5, 'counted for the retention page and the metrics');
});

test(
  'after a purge pass the embedded store vacuums only the partitions it changed, one statement each',
  { skip: Boolean(process.env.TEST_DATABASE_URL) && 'the embedded store only (PostgreSQL has autovacuum)' },
  async () => {
    const { sql } = await import('drizzle-orm');
    const { vacuumTables } = await import('../../lib/db/upkeep/vacuum-due');
    const handle = await db.getDb();
    for (const text of [
      'create table service.hygiene_parts (at timestamptz not null, n int) partition by range (at)',
      ...['01', '02', '03'].map(
        (m, k) => `create table service.hygiene_parts_${'abc'[k]} partition of service.hygiene_parts for values from ('2026-${m}-01') to ('2026-${m}-28')`,
      ),
      "insert into service.hygiene_parts select d, i from generate_series(1, 300) i, unnest(array['2026-01-15', '2026-02-15', '2026-03-15']::timestamptz[]) d",
      // The inserts' counts sent to the statistics before the vacuum, so that they do not come back after it.
      'select pg_stat_force_next_flush()',
      'vacuum (analyze) service.hygiene_parts_a, service.hygiene_parts_b, service.hygiene_parts_c',
    ])
      await handle.execute(sql.raw(text));
    try {
      await handle.execute(sql`delete from service.hygiene_parts where at = '2026-02-15' and n <= 100`);
      const stats = () =>
        db.queryRows<{ name: string; vacuums: number; dead: number }>(
          handle,
          sql`select relname as name, vacuum_count::int as vacuums, n_dead_tup::int as dead from pg_stat_user_tables where relname like 'hygiene_parts_%' order by relname`,
        );
      const before = await stats();
      await vacuumTables(['service.hygiene_parts']);
      const after = await stats();
      assert.deepEqual(
        after.map((t) => [t.name, t.vacuums - before.find((b) => b.name === t.name)!.vacuums, t.dead]),
        [
          ['hygiene_parts_a', 0, 0],
          ['hygiene_parts_b', 1, 0],
          ['hygiene_parts_c', 0, 0],
        ],
        'the partition with dead rows alone, and its dead rows gone',
      );
    } finally {
      await handle.execute(sql`drop table service.hygiene_parts`);
    }
  },
);
