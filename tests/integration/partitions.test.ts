import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TManage from '../../lib/db/partitions/manage-partitions';
import type * as TList from '../../lib/db/partitions/list-partitions';
import type * as TLeases from '../../lib/db/take-lease';

// The partition manager (lib/db/partitions) on a real database opened by the app's own code (PGlite,
// or PostgreSQL with TEST_DATABASE_URL), against scratch tables partitioned by a timestamptz as the
// app's are: partitions made ahead once, at their bounds, listed with their sizes; one caller at a
// time; partitions past a cutoff detached (CONCURRENTLY on PostgreSQL) and dropped. No app is started.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let manage: typeof TManage;
let list: typeof TList;
let leases: typeof TLeases;
const LEASE = { table: 'service.leases', name: 'partitions-scratch' } as const;
const postgres = Boolean(process.env.TEST_DATABASE_URL);

before(async () => {
  opened = await openTestDatabase('partitions');
  db = opened.client;
  manage = await import('../../lib/db/partitions/manage-partitions');
  list = await import('../../lib/db/partitions/list-partitions');
  leases = await import('../../lib/db/take-lease');
});
after(async () => {
  await opened?.close();
});

const run = (text: string, params: unknown[] = []) => db.driverRows<Record<string, unknown>>(text, params);
const scratch = async (name: string) =>
  run(`create table public.${name} (id bigint not null, at timestamptz not null, note text, primary key (id, at)) partition by range (at)`);
const day = (s: string) => new Date(`${s}T00:00:00Z`);
/** The partitions' names and bounds, as `name from..to` with days for bounds. */
const shape = async (table: string) =>
  (await list.listPartitions(table)).map((p) => `${p.name} ${p.from?.toISOString().slice(0, 10) ?? 'MIN'}..${p.to?.toISOString().slice(0, 10) ?? 'MAX'}`);
/** The partition a row of `at` went to. */
const home = async (table: string, at: string) => (await run(`select tableoid::regclass::text as t from ${table} where at = $1`, [at]))[0]?.t;

describe('partitions made ahead', () => {
  test('daily: a week ahead, made once; each row lands in its day; none past the last', async () => {
    await scratch('scratch_day');
    const p = { table: 'public.scratch_day', interval: 'day', lease: LEASE } as const;
    const now = new Date('2026-11-29T13:00:00Z');
    const made = await manage.ensurePartitions(p, now);
    const days = ['20261129', '20261130', '20261201', '20261202', '20261203', '20261204', '20261205', '20261206'];
    assert.deepEqual(
      made,
      days.map((d) => `public.scratch_day_p${d}`),
      'from the start of today to a week ahead',
    );
    assert.deepEqual(await manage.ensurePartitions(p, now), [], 'made once');
    assert.deepEqual(await manage.ensurePartitions(p, new Date('2026-11-30T01:00:00Z')), ['public.scratch_day_p20261207'], 'a day later, one day more');
    const parts = await list.listPartitions(p.table);
    assert.deepEqual(
      parts.map((x) => [x.from?.toISOString(), x.to?.toISOString()]),
      [...days, '20261207'].map((_, i) => [
        new Date(day('2026-11-29').getTime() + i * 86_400_000).toISOString(),
        new Date(day('2026-11-30').getTime() + i * 86_400_000).toISOString(),
      ]),
    );
    assert.ok(
      parts.every((x) => x.bytes >= 8192 && !x.detachPending && !x.isDefault),
      'sizes listed (a table and its primary key)',
    );

    await run(`insert into public.scratch_day (id, at) values (1, '2026-11-29T23:59:59.999Z'), (2, '2026-11-30T00:00:00Z'), (3, '2026-12-07T12:00:00Z')`);
    assert.equal(await home(p.table, '2026-11-29T23:59:59.999Z'), 'scratch_day_p20261129');
    assert.equal(await home(p.table, '2026-11-30T00:00:00Z'), 'scratch_day_p20261130', 'a bound belongs to the partition it starts');
    assert.equal(await home(p.table, '2026-12-07T12:00:00Z'), 'scratch_day_p20261207');
    await assert.rejects(run(`insert into public.scratch_day (id, at) values (4, '2026-12-08T00:00:00Z')`), /no partition/, 'no DEFAULT partition takes it');
  });

  test('weekly from Monday, monthly from the 1st; a gap left by a long stop is one partition', async () => {
    await scratch('scratch_week');
    await scratch('scratch_month');
    const week = { table: 'public.scratch_week', interval: 'week', lease: LEASE } as const;
    const month = { table: 'public.scratch_month', interval: 'month', lease: LEASE } as const;
    await manage.ensurePartitions(week, new Date('2026-11-29T13:00:00Z')); // a Sunday
    await manage.ensurePartitions(week, new Date('2027-01-20T13:00:00Z')); // seven weeks later
    assert.deepEqual(await shape(week.table), [
      'public.scratch_week_p20261123 2026-11-23..2026-11-30',
      'public.scratch_week_p20261130 2026-11-30..2026-12-07',
      'public.scratch_week_p20261207 2026-12-07..2027-01-18',
      'public.scratch_week_p20270118 2027-01-18..2027-01-25',
      'public.scratch_week_p20270125 2027-01-25..2027-02-01',
    ]);
    await manage.ensurePartitions(month, new Date('2026-11-29T13:00:00Z'));
    assert.deepEqual(await shape(month.table), [
      'public.scratch_month_p20261101 2026-11-01..2026-12-01',
      'public.scratch_month_p20261201 2026-12-01..2027-01-01',
    ]);
  });

  test('two callers at once make each partition once; while another process holds the lease, none', async () => {
    await scratch('scratch_race');
    const p = { table: 'public.scratch_race', interval: 'day', lease: LEASE } as const;
    const now = new Date('2026-11-29T13:00:00Z');
    const [a, b] = await Promise.all([manage.ensurePartitions(p, now), manage.ensurePartitions(p, now)]);
    assert.equal([...(a ?? []), ...(b ?? [])].length, 8, 'eight partitions, each made by one of them');
    if (postgres) {
      const conn = await db.getDb();
      assert.equal(await leases.takeLease(conn, LEASE, 'another-process', 60_000), true);
      assert.equal(await manage.ensurePartitions(p, new Date('2026-12-01T01:00:00Z')), null, 'skipped: another process holds the lease');
      assert.equal((await list.listPartitions(p.table)).length, 8);
      await leases.releaseLease(conn, LEASE, 'another-process');
    }
    assert.deepEqual(await manage.ensurePartitions(p, new Date('2026-12-01T01:00:00Z')), ['public.scratch_race_p20261207', 'public.scratch_race_p20261208']);
  });
});

describe('partitions dropped past a cutoff', () => {
  test('those whose range ended by the cutoff go, an old first partition from MINVALUE too; the others keep their rows', async () => {
    await scratch('scratch_drop');
    await run(`create table public.scratch_drop_old partition of public.scratch_drop for values from (minvalue) to ('2026-11-29T00:00:00Z')`);
    const p = { table: 'public.scratch_drop', interval: 'day', lease: LEASE } as const;
    await manage.ensurePartitions(p, new Date('2026-11-29T13:00:00Z'));
    await run(`insert into public.scratch_drop (id, at) select g, timestamptz '2026-11-28T12:00:00Z' + g * interval '1 day' from generate_series(0, 8) g`);
    const dropped = await manage.dropPartitionsBefore(p, new Date('2026-12-01T06:00:00Z'));
    assert.deepEqual(dropped, ['public.scratch_drop_old', 'public.scratch_drop_p20261129', 'public.scratch_drop_p20261130']);
    const [left] = await run(
      `select array_agg(id order by id)::text as ids, to_regclass('public.scratch_drop_p20261129') is null as gone from public.scratch_drop`,
    );
    assert.deepEqual(left, { ids: '{3,4,5,6,7,8}', gone: true }, 'the rows of the partitions kept, and the tables dropped, not only detached');
    assert.deepEqual(await manage.dropPartitionsBefore(p, new Date('2026-12-01T06:00:00Z')), []);
  });

  test('on PostgreSQL, a DETACH CONCURRENTLY cut short is finished by the next drop', { skip: !postgres && 'PostgreSQL only' }, async () => {
    await scratch('scratch_cut');
    const p = { table: 'public.scratch_cut', interval: 'day', lease: LEASE } as const;
    await manage.ensurePartitions(p, new Date('2026-11-29T13:00:00Z'));
    const pg = (await import('pg')).default;
    const reader = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([reader.connect(), killer.connect()]);
    try {
      // A snapshot older than the detach: its second step waits for it, and is cancelled there.
      await reader.query('begin isolation level repeatable read');
      await reader.query('select count(*) from public.scratch_cut');
      const drop = manage.dropPartitionsBefore(p, new Date('2026-11-30T00:00:00Z')).then(
        () => assert.fail('the detach was cancelled'),
        (err: Error) => err,
      );
      for (let cancelled = false; !cancelled; await new Promise((r) => setTimeout(r, 50))) {
        const { rows } = await killer.query(
          `select pg_cancel_backend(pid) as c from pg_stat_activity where query like '%detach partition public.scratch_cut_p20261129 concurrently%' and pid <> pg_backend_pid()`,
        );
        cancelled = rows.some((r) => r.c);
      }
      assert.match(String(((await drop).cause as Error | undefined)?.message), /canceling statement/);
      await reader.query('rollback');
      assert.equal((await list.listPartitions(p.table))[0].detachPending, true, 'left pending');
      assert.deepEqual(await manage.dropPartitionsBefore(p, new Date('2026-11-30T00:00:00Z')), ['public.scratch_cut_p20261129']);
    } finally {
      await reader.end();
      await killer.end();
    }
  });

  test(
    'on PostgreSQL, a process killed -9 during its DETACH CONCURRENTLY: the next drop finishes the partition',
    { skip: !postgres && 'PostgreSQL only' },
    async () => {
      await scratch('scratch_kill');
      const p = { table: 'public.scratch_kill', interval: 'day', lease: { table: 'service.leases', name: 'partitions-kill' } } as const;
      await manage.ensurePartitions(p, new Date('2026-11-29T13:00:00Z'));
      const pg = (await import('pg')).default;
      const reader = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await reader.connect();
      try {
        // A snapshot older than the detach holds it at its second step; the process that runs it is killed there.
        await reader.query('begin isolation level repeatable read');
        await reader.query('select count(*) from public.scratch_kill');
        const code = `const m = await import('./lib/db/partitions/manage-partitions.ts');
        await m.dropPartitionsBefore(${JSON.stringify(p)}, new Date('2026-11-30T00:00:00Z'));`;
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
          cwd: path.resolve(import.meta.dirname, '../..'),
          stdio: 'ignore',
        });
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const detaching = `select pid from pg_stat_activity where query like '%detach partition public.scratch_kill_p20261129 concurrently%' and pid <> pg_backend_pid()`;
        for (let waiting = false; !waiting; await new Promise((r) => setTimeout(r, 50))) waiting = (await run(detaching)).length > 0;
        child.kill('SIGKILL');
        await exited;
        await reader.query('rollback');
        // Its backend, not told of the kill until it answers, ends its statement and goes; the partition is left detached
        // (the lone table) or pending, as the kill fell, and no one's drop ran.
        for (let busy = true; busy; await new Promise((r) => setTimeout(r, 50))) busy = (await run(detaching)).length > 0;
        assert.equal((await run(`select to_regclass('public.scratch_kill_p20261129') is not null as t`))[0].t, true, 'not dropped by the killed process');
        // Its lease runs out (LEASE_MS after it was taken); then the next drop finishes the partition.
        assert.equal(await manage.dropPartitionsBefore(p, new Date('2026-11-30T00:00:00Z')), null, 'the killed holder still holds the lease');
        await run(`update service.leases set until = now() where name = 'partitions-kill'`);
        assert.deepEqual(await manage.dropPartitionsBefore(p, new Date('2026-11-30T00:00:00Z')), ['public.scratch_kill_p20261129']);
        assert.equal((await run(`select to_regclass('public.scratch_kill_p20261129') is null as t`))[0].t, true, 'dropped');
        assert.equal((await list.listPartitions(p.table)).length, 7, 'the others stay');
      } finally {
        await reader.end();
      }
    },
  );
});
