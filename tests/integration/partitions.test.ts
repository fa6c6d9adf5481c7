import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TManage from '../../lib/db/partitions/manage-partitions';
import type * as TList from '../../lib/db/partitions/list-partitions';
import type { TPartition } from '../../lib/db/partitions/list-partitions';
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

describe("lookups by a message's id plan the partitions of its time", () => {
  type TPlan = { 'Relation Name'?: string; Plans?: TPlan[] };
  const scans = (plan: TPlan): string[] => [...(plan['Relation Name'] ? [plan['Relation Name']] : []), ...(plan.Plans ?? []).flatMap(scans)];
  const TABLES = /service\.(messages|deliveries|attempts)\b|"service"\."(messages|deliveries|attempts)"/;

  /** Each statement over messages, deliveries or attempts that `read` sends (through the driver and through drizzle), with the partitions its plan scans. */
  async function plannedBy(read: () => Promise<unknown>): Promise<{ text: string; parts: string[] }[]> {
    const handle = await db.storeHandle();
    const client = ((await db.getDb()) as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const sent = new Map<string, [string, unknown[]]>();
    const note = (text: string, params: unknown[]) => {
      if (TABLES.test(text) && !/^\s*explain/i.test(text)) sent.set(JSON.stringify([text, params]), [text, params]);
    };
    const [handleQuery, clientQuery] = [handle.query, client.query];
    handle.query = ((text: string, params: unknown[], name?: string) => (note(text, params), handleQuery(text, params, name))) as typeof handle.query;
    client.query = (...args: unknown[]) => {
      const [a, b] = args as [string | { text: string; values?: unknown[] }, unknown];
      if (typeof a === 'string') note(a, Array.isArray(b) ? b : []);
      else note(a.text, Array.isArray(b) ? b : (a.values ?? []));
      return clientQuery.apply(client, args);
    };
    try {
      await read();
    } finally {
      Object.assign(handle, { query: handleQuery });
      client.query = clientQuery;
    }
    const plans: { text: string; parts: string[] }[] = [];
    for (const [text, params] of sent.values()) {
      const [row] = await run(`explain (format json) ${text}`, params);
      const json = row['QUERY PLAN'];
      const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TPlan }[];
      plans.push({ text, parts: [...new Set(scans(Plan))].sort() });
    }
    return plans;
  }

  /** Partitions of `tables` for 30 days ahead (many to leave out), and an account (…0b`n`) with a webhook named `name`. */
  async function aheadWithWebhook(tables: string[], n: string, name: string): Promise<{ account: string; webhook: string }> {
    const { partitionInterval } = await import('../../lib/db/partitions/interval');
    const interval = partitionInterval(postgres ? 'postgres' : 'pglite');
    for (const table of tables)
      await manage.ensurePartitions(
        { table: `service.${table}`, interval, lease: { table: 'service.leases', name: `partitions-service.${table}` } },
        new Date(Date.now() + 30 * 86_400_000),
      );
    const [account, webhook] = [`00000000-0000-4000-8000-0000000b${n}`, `ep_${name.padEnd(27, '0')}`];
    await run(`insert into service.accounts (id, name) values ($1, $2)`, [account, name]);
    await run(`insert into service.webhooks (id, account_id, url, event_types) values ($1, $2, 'http://127.0.0.1:9/', '{grant.succeeded}')`, [
      webhook,
      account,
    ]);
    return { account, webhook };
  }

  test('by message id, event id and attempt id: the messages and deliveries partitions of its second ± the slack, the attempts partitions since; an id that is no KSUID, every one', async () => {
    const { default: KSUID } = await import('ksuid');
    const { randomBytes } = await import('node:crypto');
    const { ensureServicePartitions } = await import('../../lib/service/retention/purge-service');
    const { getAccountMessage } = await import('../../lib/service/messages/get-account-message');
    const { getMessage } = await import('../../lib/service/messages/get-message');
    const { listAttempts } = await import('../../lib/service/attempts/list-attempts');
    const { getAttempt } = await import('../../lib/service/attempts/get-attempt');
    const { idWindow } = await import('../../lib/ids');
    await ensureServicePartitions();
    // Partitions for 30 days ahead beside this week's (a day each on PostgreSQL, a week embedded): many to leave out.
    const { account, webhook } = await aheadWithWebhook(['messages', 'deliveries', 'attempts'], '0040', 'lookups');
    // A message of now, one of 20 days back (in the first partition, from MINVALUE), each with its delivery and an attempt a
    // second after it; and one of now whose id is no KSUID (a hand-made row's).
    const made = async (ago: number, id?: string) => {
      const at = Date.now() - ago;
      const k = (prefix: string, ms = at) => `${prefix}${KSUID.fromParts(ms, randomBytes(16)).string}`;
      const m = { id: id ?? k('msg_'), event: k('evt_'), attempt: k('atmpt_', at + 1000), at: new Date(at) };
      await run(
        `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ($1, $2, $3, 'grant.succeeded', '{}', $4) returning id, created_at),
              d as (insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
                      select id, $5, $2, 'grant.succeeded', 'failed', 1, created_at from m returning id)
         insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type)
           select $6, d.id, $1, $5, $2, 'http://127.0.0.1:9/', $4::timestamptz + interval '1 second', 'failed', 500, 3, 'scheduled' from d`,
        [m.id, account, m.event, m.at.toISOString(), webhook, m.attempt],
      );
      return m;
    };
    const lookups = (m: { id: string; event: string; attempt: string }): [string, () => Promise<unknown>][] => [
      ['GET /v1/messages/{msg_}', () => getAccountMessage(account, m.id, { withAttempts: true })],
      ['GET /v1/messages/{evt_}', () => getAccountMessage(account, m.event)],
      ["a webhook's message", () => getMessage(account, webhook, m.id)],
      ['its attempts (and a resend, its delivery)', () => listAttempts(account, webhook, m.id, { limit: 10, cursor: null, scope: 'x' })],
      ['one attempt', () => getAttempt(account, webhook, m.attempt, m.id)],
    ];
    const partitions = async (table: string) => (await list.listPartitions(`service.${table}`)).map((p) => ({ ...p, name: p.name.replace('service.', '') }));
    const all = { messages: await partitions('messages'), deliveries: await partitions('deliveries'), attempts: await partitions('attempts') };
    assert.ok(all.messages.length >= 6, `messages partitions ahead: ${all.messages.map((p) => p.name)}`);

    for (const m of [await made(0), await made(20 * 86_400_000)]) {
      const w = idWindow(m.id)!;
      // A partition of the message's time: its range meets [from, to); attempts: its range ends after `from`.
      const near = (p: TPartition) => (p.from === null || p.from < w.to) && (p.to === null || p.to > w.from);
      const since = (p: TPartition) => p.to === null || p.to > w.from;
      const want = (table: keyof typeof all, keep: (p: TPartition) => boolean) => all[table].filter(keep).map((p) => p.name);
      for (const [name, read] of lookups(m)) {
        const plans = await plannedBy(read);
        assert.ok(plans.length > 0, `${name}: a statement over the message's tables`);
        for (const { text, parts } of plans) {
          const of = (table: string) => parts.filter((p) => p.startsWith(`${table}_p`));
          for (const table of ['messages', 'deliveries'] as const) {
            const extra = of(table).filter((p) => !want(table, near).includes(p));
            assert.deepEqual(extra, [], `${name} (${m.at.toISOString()}): ${table} partitions outside its time, in ${text}`);
          }
          // The newest attempt of each delivery too, read after a join: bounded by constants as well (message-time.ts attemptsAfter).
          assert.deepEqual(
            of('attempts').filter((p) => !want('attempts', since).includes(p)),
            [],
            `${name}: attempts before it, in ${text}`,
          );
        }
        assert.ok(
          plans.some(({ parts }) => parts.some((p) => p.startsWith('messages_p') || p.startsWith('deliveries_p') || p.startsWith('attempts_p'))),
          name,
        );
      }
      assert.ok(want('messages', near).length <= 3, `the message's time meets ${want('messages', near)}`);
      assert.equal((await getAccountMessage(account, m.id, { withAttempts: true })).deliveries[0].attempts?.[0]?.id, m.attempt, 'found');
    }
    // An id that is no KSUID: found, every partition planned.
    const loose = await made(0, `msg_${'handmade'.padEnd(27, 'z')}`);
    assert.equal((await getAccountMessage(account, loose.id)).id, loose.id);
    const plans = await plannedBy(() => getAccountMessage(account, loose.id));
    assert.ok(
      plans.some(({ parts }) => parts.filter((p) => p.startsWith('messages_p')).length === all.messages.length),
      'an id that is no KSUID: every messages partition',
    );
  });
  test("retention's purge of attempts' answers checks each one's delivery in the partitions up to its own time, not in every one", async () => {
    const { ensureServicePartitions, SELECT_RESPONSES } = await import('../../lib/service/retention/purge-service');
    await ensureServicePartitions();
    const { account, webhook } = await aheadWithWebhook(['messages', 'deliveries', 'attempts'], '0042', 'answers');
    // Two messages of 20 days back, each with a delivery and an attempt with an answer: one delivered, one failed (held).
    const made = async (status: string) => {
      const at = new Date(Date.now() - 20 * 86_400_000).toISOString();
      const id = `msg_answers_${status}`;
      await run(
        `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ($1, $2, $3, 'grant.succeeded', '{}', $4) returning id, created_at),
              d as (insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
                      select id, $5, $2, 'grant.succeeded', $6, 1, created_at from m returning id)
         insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
           select $7, d.id, $1, $5, $2, 'http://127.0.0.1:9/', $4::timestamptz + interval '1 second', 'failed', 500, 3, 'an answer', 'scheduled' from d`,
        [id, account, `evt_${id.slice(4)}`, at, webhook, status, `atmpt_answers_${status}`],
      );
      return `atmpt_answers_${status}`;
    };
    const [settled, held] = [await made('success'), await made('failed')];
    // Answers past 10 days are due, but a failed delivery's are held 90 days: the settled one's alone (from the oldest: no cursor).
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const params = [ago(10), ago(90), 500, null];
    const due = (await run(SELECT_RESPONSES[0], params)).map((r) => r.id);
    assert.ok(due.includes(settled), 'the delivered one is due');
    assert.ok(!due.includes(held), 'the failed one is held');
    type TRun = { 'Relation Name'?: string; 'Actual Loops'?: number; Plans?: TRun[] };
    const ran = (plan: TRun): string[] => [
      ...(plan['Relation Name'] && (plan['Actual Loops'] ?? 0) > 0 ? [plan['Relation Name']] : []),
      ...(plan.Plans ?? []).flatMap(ran),
    ];
    // The attempts partitions past the cutoff are left out as it is planned: with now() less an interval (STABLE) each was
    // planned, then removed as the statement ran.
    const [plan] = await run(`explain (format json) ${SELECT_RESPONSES[0]}`, params);
    const planText = typeof plan['QUERY PLAN'] === 'string' ? plan['QUERY PLAN'] : JSON.stringify(plan['QUERY PLAN']);
    assert.ok(!/"Subplans Removed": ?[1-9]/.test(planText), 'no partition planned, then removed as it ran');
    const [row] = await run(`explain (analyze, format json) ${SELECT_RESPONSES[0]}`, params);
    const json = row['QUERY PLAN'];
    const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TRun }[];
    const read = [...new Set(ran(Plan).filter((r) => r.startsWith('deliveries_p')))];
    const total = (await list.listPartitions('service.deliveries')).length;
    assert.ok(read.length >= 1 && read.length <= 2, `the deliveries partitions read: ${read.join(', ')}`);
    assert.ok(total >= read.length + 4, `of ${total}`);
  });
  test("the problems view's failed deliveries and a webhook's page of messages read their messages and deliveries in the partitions of their times alone", async () => {
    const { default: KSUID } = await import('ksuid');
    const { randomBytes } = await import('node:crypto');
    const { ensureServicePartitions } = await import('../../lib/service/retention/purge-service');
    const { listTroubledMessages } = await import('../../lib/service/messages/troubled-messages');
    const { listMessages } = await import('../../lib/service/messages/list-messages');
    await ensureServicePartitions();
    const { account, webhook } = await aheadWithWebhook(['messages', 'deliveries'], '0041', 'troubled');
    // Failed deliveries of now and of 3 days back, with a message each; and messages of the days between, of no delivery listed.
    for (const ago of [0, 1, 2, 3].map((d) => d * 86_400_000)) {
      const at = new Date(Date.now() - ago);
      const id = `msg_${KSUID.fromParts(at.getTime(), randomBytes(16)).string}`;
      await run(
        `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ($1, $2, $3, 'grant.succeeded', '{}', $4) returning id, created_at)
         insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
           select id, $5, $2, 'grant.succeeded', $6, 1, created_at from m`,
        [id, account, `evt_${id.slice(4)}`, at.toISOString(), webhook, ago % (3 * 86_400_000) === 0 ? 'failed' : 'delivered'],
      );
    }
    const total = (await list.listPartitions('service.messages')).length;
    // The partitions a statement over the page's rows by id plans, against those of the rows' own times.
    const pagePlanned = async (read: () => Promise<unknown>, status: string[]) => {
      const [byId] = (await plannedBy(read)).filter(({ text }) => /"service"\."deliveries"\."id" in/.test(text));
      assert.ok(byId, 'the page read by id');
      const of = (table: string) => byId.parts.filter((p) => p.startsWith(`${table}_p`));
      const home = async (table: string) =>
        (
          await run(
            `select distinct tableoid::regclass::text as t from service.${table}
              where account_id = $1 and created_at in (select created_at from service.deliveries where account_id = $1 and status = any($2::text[]))`,
            [account, `{${status.join(',')}}`],
          )
        )
          .map((r) => String(r.t).replace('service.', ''))
          .sort();
      assert.deepEqual(of('deliveries'), await home('deliveries'), 'deliveries: the partitions of the page');
      assert.deepEqual(of('messages'), await home('messages'), `messages: the partitions of the page, not all ${total}`);
      assert.ok(total > of('messages').length + 2, 'partitions to leave out');
    };
    const troubled = () => listTroubledMessages(account, { limit: 10, cursor: null, scope: 'x' }, { state: 'failed', withContent: true });
    assert.equal((await troubled()).results.length, 2, 'the two failed deliveries listed');
    await pagePlanned(troubled, ['failed']);
    // A webhook's messages, a page of two: the newest two (now and a day back), their rows read after the page is cut.
    const page = () => listMessages(account, webhook, { limit: 2, cursor: null, scope: 'x' }, { withContent: true });
    const newest = await page();
    assert.deepEqual(
      newest.results.map((r) => r.status),
      ['failed', 'delivered'],
      'newest first',
    );
    assert.ok(newest.nextPageToken, 'a page after it');
    await run(`update service.deliveries set status = 'pending' where account_id = $1 and created_at > now() - interval '36 hours'`, [account]);
    await pagePlanned(page, ['pending']);
  });
});
