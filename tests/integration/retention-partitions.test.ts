import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import { eventually } from '../helpers/http';
import type * as TPurge from '../../lib/service/retention/purge-service';
import type * as TDrop from '../../lib/service/retention/drop-attempts';
import type * as TDropDeliveries from '../../lib/service/retention/drop-deliveries';
import type * as TDropMessages from '../../lib/service/retention/drop-messages';
import type * as TList from '../../lib/db/partitions/list-partitions';
import type * as TErase from '../../lib/service/erasures/erase-donor';
import type * as TStatus from '../../lib/service/retention/partition-status';
import type * as TBuckets from '../../lib/service/stats/query-attempt-buckets';
import type * as TStats from '../../lib/service/stats/get-webhook-stats';

// Retention by dropping service.attempts' partitions (issue 52), on a real database opened by the app's own code (PGlite,
// or PostgreSQL with TEST_DATABASE_URL) and the service's real purge loop, with a retention of 30 days over partitions
// made 35 to 45 days back: no app is started (a day's partitions cannot be made old by waiting seconds). The store is
// this file's own, so it reshapes attempts' partitions as it needs. What must stay keeps its partition; the archive
// comes first; a partition a killed pass detached and did not drop is dropped by the next; erasure reaches an old one.
// Then deliveries' partitions, and messages' (migration 0040), the same way.

const RETENTION = '30d';
const ACCOUNT = '51515151-5151-4515-8515-515151515151';
const LONGER = '52525252-5252-4525-8525-525252525252'; // keeps its rows 60 days
const WEBHOOK = `ep_${'parts'.padEnd(26, '0')}1`;
const DAY = 86_400_000;
const midnight = new Date(Math.floor(Date.now() / DAY) * DAY);
/** The UTC midnight `n` days before today's. */
const daysAgo = (n: number) => new Date(midnight.getTime() - n * DAY);

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let purge: typeof TPurge;
let drop: typeof TDrop;
let dropDeliveries: typeof TDropDeliveries;
let dropMessages: typeof TDropMessages;
let list: typeof TList;
let erase: typeof TErase;
let partStatus: typeof TStatus;
let buckets: typeof TBuckets;
let stats: typeof TStats;
const archive = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-parts-archive-'));

before(async () => {
  Object.assign(process.env, { MESSAGE_RETENTION: RETENTION, ARCHIVE_DIR: archive });
  opened = await openTestDatabase('retention-partitions');
  db = opened.client;
  purge = await import('../../lib/service/retention/purge-service');
  drop = await import('../../lib/service/retention/drop-attempts');
  // Every due partition in one pass: past the budget (a second; at a load of 15-20 its archive, detach and drop of several
  // took longer) the rest go at the next pass, and the rows step takes their rows one by one meanwhile, so the drops' counts
  // asserted below read 1 against 3 and 2.
  drop.DROP_BUDGET.ms = 60_000;
  dropDeliveries = await import('../../lib/service/retention/drop-deliveries');
  dropMessages = await import('../../lib/service/retention/drop-messages');
  list = await import('../../lib/db/partitions/list-partitions');
  erase = await import('../../lib/service/erasures/erase-donor');
  partStatus = await import('../../lib/service/retention/partition-status');
  buckets = await import('../../lib/service/stats/query-attempt-buckets');
  stats = await import('../../lib/service/stats/get-webhook-stats');
});
after(async () => {
  await purge?.stopServicePurge();
  await opened?.close();
  fs.rmSync(archive, { recursive: true, force: true });
});

const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);
/** Statements one by one (the driver prepares each: one command a statement). */
const script = async (text: string) => {
  for (const statement of text.split(/;\s*\n/)) if (statement.trim()) await run(statement);
};
const iso = (d: Date) => `'${d.toISOString()}'`;
const P = (n: number) => `service.attempts_p${daysAgo(n).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** A message of `account` made `at`, one delivery in `status`, one attempt whose answer names it, tagged with a donor. */
const message = (id: string, at: Date, status: string, account = ACCOUNT) => `
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at, tags) values
    ('${id}', '${account}', 'evt_${id}', 'grant.succeeded', '{"id":"${id}"}', ${iso(at)}, '{donor:${id}@example.org}');
  insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, next_attempt_at, created_at) values
    ('${id}', '${WEBHOOK}', '${account}', 'grant.succeeded', '${status}', 1, ${status === 'pending' ? "now() + interval '1 hour'" : 'null'}, ${iso(at)});
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
    select 'atmpt_${id}', d.id, '${id}', '${WEBHOOK}', '${account}', 'http://127.0.0.1:9/x', ${iso(new Date(at.getTime() + 60_000))},
           '${status === 'success' ? 'success' : 'failed'}', 200, 5, 'answer for ${id}', 'scheduled'
      from service.deliveries d where d.message_id = '${id}';
`;

/** Runs one whole pass of the service's real purge loop and stops it. */
async function pass(): Promise<void> {
  const [{ at }] = await run<{ at: string }>(`select now()::text as at`);
  purge.startServicePurge();
  await eventually(
    async () => (await run(`select 1 from service.retention_progress where what = 'pass' and pass_ended_at > $1::timestamptz`, [at])).length > 0,
    30_000,
    'a pass to end',
  );
  await purge.stopServicePurge();
}

/** Passes until `gone` are all dropped: a pass drops partitions for at most a second (drop-attempts.ts' budget), the rest at
 * the next, so at load one pass may leave one (seen on the embedded store at a load of 15-20). At most five. */
async function passUntilDropped(gone: string[]): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await pass();
    if (!(await Promise.all(gone.map(exists))).some(Boolean)) return;
  }
}

const partitions = async () => (await list.listPartitions('service.attempts')).map((p) => p.name);
const exists = async (table: string) => (await run<{ t: string | null }>(`select to_regclass($1)::text as t`, [table]))[0].t !== null;
const left = async (ids: string[]) =>
  (await run<{ id: string }>(`select id from service.messages where id = any($1::text[]) order by id`, [ids])).map((r) => r.id);

describe('attempts past their retention leave with their partition', () => {
  test('a pass drops the old partitions after archiving them, keeps those holding what must stay, and finishes a killed drop', async () => {
    // The template's partitions give way to days 41 to 36 back (a first one from MINVALUE, as an upgraded store's),
    // then one to today and the app's own ahead.
    for (const p of await list.listPartitions('service.attempts')) {
      await run(`alter table service.attempts detach partition ${p.name}`);
      await run(`drop table ${p.name}`);
    }
    const parts = [
      `create table service.attempts_p0 partition of service.attempts for values from (minvalue) to (${iso(daysAgo(41))})`,
      ...[41, 40, 39, 38, 37].map((n) => `create table ${P(n)} partition of service.attempts for values from (${iso(daysAgo(n))}) to (${iso(daysAgo(n - 1))})`),
      `create table ${P(36)} partition of service.attempts for values from (${iso(daysAgo(36))}) to (${iso(daysAgo(0))})`,
    ];
    for (const p of parts) await run(p);
    await purge.ensureServicePartitions();
    await script(`
      insert into service.accounts (id, name) values ('${ACCOUNT}', 'parts'), ('${LONGER}', 'parts-longer');
      insert into service.account_retention (account_id, message_retention_ms) values ('${LONGER}', ${60 * DAY});
      insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
      ${message('m_first', daysAgo(45), 'success')}
      ${message('m_killed', new Date(daysAgo(41).getTime() + 3_600_000), 'success')}
      ${message('m_ok', new Date(daysAgo(40).getTime() + 3_600_000), 'success')}
      ${message('m_failed', new Date(daysAgo(40).getTime() + 7_200_000), 'failed')}
      ${message('m_beside', new Date(daysAgo(39).getTime() + 3_600_000), 'success')}
      ${message('m_pending', new Date(daysAgo(39).getTime() + 7_200_000), 'pending')}
      ${message('m_longer', new Date(daysAgo(38).getTime() + 3_600_000), 'success', LONGER)}
      ${message('m_recent', daysAgo(20), 'success')}`);
    // A pass killed between its DETACH and its DROP leaves the partition a lone table (killed during DETACH CONCURRENTLY on
    // PostgreSQL, it is left pending: tests/integration/partitions.test.ts).
    await run(`alter table service.attempts detach partition ${P(41)}`);

    await passUntilDropped(['service.attempts_p0', P(41), P(40), P(37)]);
    const names = await partitions();
    for (const gone of ['service.attempts_p0', P(41), P(40), P(37)]) {
      assert.ok(!names.includes(gone), `${gone} detached`);
      assert.equal(await exists(gone), false, `${gone} dropped, not only detached`);
    }
    assert.ok(names.includes(P(39)), 'the partition of a pending delivery stays');
    assert.ok(names.includes(P(38)), "the partition of an account's longer retention stays");
    assert.equal(names[0], P(39), 'the oldest partition left');
    assert.deepEqual(await left(['m_first', 'm_killed', 'm_ok', 'm_failed', 'm_beside', 'm_pending', 'm_longer', 'm_recent']), [
      'm_longer',
      'm_pending',
      'm_recent',
    ]);
    const [kept] = await run<{ attempts: string; deliveries: number }>(
      `select string_agg(id, ' ' order by id) as attempts, (select count(*)::int from service.deliveries where message_id in ('m_ok', 'm_failed', 'm_beside')) as deliveries
         from service.attempts`,
    );
    assert.deepEqual(kept, { attempts: 'atmpt_m_longer atmpt_m_pending atmpt_m_recent', deliveries: 0 }, "the kept partition's other rows went row by row");
    const [progress] = await run<{ n: string }>(`select purged::text as n from service.retention_progress where what = 'attempt_partitions'`);
    assert.equal(progress.n, '3', 'the attempts of m_first, m_ok and m_failed left by the drops (the lone table was counted by its pass)');

    // The archive came first: each dropped attempt's answer, as the messages step archives those it deletes.
    const archived = fs
      .readdirSync(archive)
      .filter((f) => f.startsWith('attempts-'))
      .flatMap((f) =>
        gunzipSync(fs.readFileSync(path.join(archive, f)))
          .toString()
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l) as { id: string; response: string; purged: string });
    for (const id of ['m_first', 'm_ok', 'm_failed', 'm_beside']) {
      assert.deepEqual(
        archived.filter((a) => a.id === `atmpt_${id}`).map((a) => [a.response, a.purged]),
        [[`answer for ${id}`, 'row']],
        `atmpt_${id} archived once before it went`,
      );
    }

    // Why each kept partition stays, and until when, as the retention page says.
    const rules = await drop.attemptRules(30 * DAY, [{ accountId: LONGER, payloadMs: null, rowsMs: 60 * DAY }]);
    const holds = await drop.attemptPartitionHolds(rules, await list.listPartitions('service.attempts'));
    assert.deepEqual(
      holds.map((h) => [h.partition, h.pending, h.accountKept]),
      [
        [P(39), 1, 0],
        [P(38), 0, 1],
      ],
    );
    assert.equal(holds[0].until, null, 'until its delivery is resolved');
    const until = holds[1].until!.getTime();
    assert.ok(
      until >= daysAgo(38).getTime() + 60 * DAY && until <= daysAgo(38).getTime() + 68 * DAY,
      `until its account's 60 days are past (${holds[1].until?.toISOString()})`,
    );

    // As the page, the API and /metrics read it: the kept ones are not the next drop, the partition after them is.
    const status = (await partStatus.attemptPartitionStatus())!;
    assert.deepEqual(
      status.held.map((h) => [h.partition, h.until]),
      [
        [P(39), null],
        [P(38), holds[1].until!.toISOString()],
      ],
    );
    assert.deepEqual(status.nextDrop, { partition: P(36), at: new Date(midnight.getTime() + 30 * DAY).toISOString() });
    assert.equal(status.oldestFrom, daysAgo(39).toISOString());
    // As the API answers one account: the same partitions kept until the same times, counted in that account's messages
    // alone (m_pending is ACCOUNT's, m_longer LONGER's): no client learns what another's rows hold.
    const counts = async (accountId: string) =>
      (await partStatus.attemptPartitionStatus(accountId))!.held.map((h) => [h.partition, h.pending, h.accountKept, h.until]);
    assert.deepEqual(await counts(ACCOUNT), [
      [P(39), 1, 0, null],
      [P(38), 0, 0, holds[1].until!.toISOString()],
    ]);
    assert.deepEqual(await counts(LONGER), [
      [P(39), 0, 0, null],
      [P(38), 0, 1, holds[1].until!.toISOString()],
    ]);

    // Resolved, the pending message goes at the next pass with its partition, dropped whole.
    await run(`update service.deliveries set status = 'success', next_attempt_at = null where message_id = 'm_pending'`);
    await pass();
    assert.equal(await exists(P(39)), false, 'dropped once nothing in it must stay');
    assert.deepEqual(await left(['m_pending', 'm_longer']), ['m_longer']);
    const [again] = await run<{ n: string }>(`select purged::text as n from service.retention_progress where what = 'attempt_partitions'`);
    assert.equal(again.n, '4');
  });

  test("a donor's erasure reaches an attempt in an old partition", async () => {
    await script(`${message('m_erased', new Date(daysAgo(30).getTime() + 3_600_000), 'success')}`);
    const [before] = await run<{ t: string }>(`select tableoid::regclass::text as t from service.attempts where id = 'atmpt_m_erased'`);
    assert.equal(before.t, P(36), 'the attempt sits in the old partition');
    const report = await erase.eraseDonor(ACCOUNT, { email: 'm_erased@example.org' });
    assert.equal(report.attempts.erased, 1);
    const [row] = await run(`select response, response_erased from service.attempts where id = 'atmpt_m_erased'`);
    assert.deepEqual(row, { response: '', response_erased: true });
  });

  test("a message's rows wait for its attempts' partition: a retention of an interval or more counts to the start of its cutoff's interval", () => {
    const now = Date.parse('2026-11-29T13:00:00Z');
    assert.equal(drop.alignedRetentionMs(30 * DAY, 'day', now), now - Date.parse('2026-10-30T00:00:00Z'), 'to the midnight before its cutoff (13 h longer)');
    assert.equal(drop.alignedRetentionMs(30 * DAY, 'week', now), now - Date.parse('2026-10-26T00:00:00Z'), 'to the Monday before');
    assert.equal(drop.alignedRetentionMs(5_000, 'day', now), 5_000, 'seconds stay seconds: their partition is the current one');
  });
});

describe('deliveries past their retention leave with their partition', () => {
  const D = (n: number) => `service.deliveries_p${daysAgo(n).toISOString().slice(0, 10).replaceAll('-', '')}`;
  /** A message of `account` made `at`, its delivery in `status`; with `attemptAt`, one attempt then (a resend, weeks later). */
  const delivered = (id: string, at: Date, status: string, attemptAt?: Date) => `
    insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
      ('${id}', '${ACCOUNT}', 'evt_${id}', 'grant.succeeded', '{"id":"${id}"}', ${iso(at)});
    insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at) values
      ('${id}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', '${status}', ${attemptAt ? 1 : 0}, ${status === 'pending' ? "now() + interval '1 hour'" : 'null'}, ${iso(at)},
       ${iso(attemptAt ?? at)});
    ${
      attemptAt
        ? `insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
      select 'atmpt_${id}', d.id, '${id}', '${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', ${iso(attemptAt)}, 'success', 200, 5, 'answer for ${id}', 'manual'
        from service.deliveries d where d.message_id = '${id}';`
        : ''
    }`;

  test('a pass drops the old ones after the attempts of their range, deletes their later attempts first, keeps those holding what must stay, and finishes a killed drop', async () => {
    // Deliveries' partitions reshaped as the attempts' were (the rows of the tests before kept): a first one from MINVALUE,
    // days 41 to 37 back, one from 36 days back to today, then the app's own ahead.
    await script(`
      create table service.deliveries_kept as select * from service.deliveries;
      ${(await list.listPartitions('service.deliveries')).map((p) => `alter table service.deliveries detach partition ${p.name};\n drop table ${p.name};`).join('\n')}
      create table service.deliveries_p0 partition of service.deliveries for values from (minvalue) to (${iso(daysAgo(41))});
      ${[41, 40, 39, 38, 37].map((n) => `create table ${D(n)} partition of service.deliveries for values from (${iso(daysAgo(n))}) to (${iso(daysAgo(n - 1))});`).join('\n')}
      create table ${D(36)} partition of service.deliveries for values from (${iso(daysAgo(36))}) to (${iso(daysAgo(0))});`);
    await purge.ensureServicePartitions();
    // The tests before leave every delivery resolved; resolved here too, so a failure there is not counted again here.
    await script(`
      insert into service.deliveries select * from service.deliveries_kept;
      drop table service.deliveries_kept;
      update service.deliveries set status = 'success', next_attempt_at = null where status in ('pending', 'sending');
      ${delivered('d_first', daysAgo(45), 'success')}
      ${delivered('d_late', new Date(daysAgo(40).getTime() + 3_600_000), 'success', daysAgo(31))}
      ${delivered('d_pending', new Date(daysAgo(39).getTime() + 3_600_000), 'pending')}
      ${delivered('d_beside', new Date(daysAgo(39).getTime() + 7_200_000), 'success')}
      ${delivered('d_killed', new Date(daysAgo(37).getTime() + 3_600_000), 'success')}`);
    // A pass killed between its DETACH and its DROP: a lone deliveries table.
    await run(`alter table service.deliveries detach partition ${D(37)}`);
    // What the drops take: the rows of the first partition and days 41 and 40 (the lone table's were counted by its pass).
    const [due] = await run<{ n: string }>(`select count(*)::text as n from service.deliveries where created_at < ${iso(daysAgo(39))}`);

    await passUntilDropped(['service.deliveries_p0', D(41), D(40), D(37)]);
    const names = (await list.listPartitions('service.deliveries')).map((p) => p.name);
    for (const gone of ['service.deliveries_p0', D(41), D(40), D(37)]) {
      assert.ok(!names.includes(gone), `${gone} detached`);
      assert.equal(await exists(gone), false, `${gone} dropped, not only detached`);
    }
    assert.ok(names.includes(D(39)), 'the partition of a pending delivery stays');
    assert.ok(names.includes(D(38)), "the partition of an account's longer retention stays (m_longer's delivery, above)");
    assert.deepEqual(await left(['d_first', 'd_late', 'd_pending', 'd_beside', 'd_killed']), ['d_pending']);
    const [late] = await run<{ n: number }>(`select count(*)::int as n from service.attempts where id = 'atmpt_d_late'`);
    assert.equal(late.n, 0, "d_late's attempt, made 9 days after its delivery's range, went before its delivery");
    const archived = fs
      .readdirSync(archive)
      .filter((f) => f.startsWith('attempts-'))
      .flatMap((f) =>
        gunzipSync(fs.readFileSync(path.join(archive, f)))
          .toString()
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l) as { id: string; response: string; purged: string });
    assert.deepEqual(
      archived.filter((a) => a.id === 'atmpt_d_late').map((a) => [a.response, a.purged]),
      [['answer for d_late', 'row']],
      'archived once before it went',
    );
    const [progress] = await run<{ n: string }>(`select purged::text as n from service.retention_progress where what = 'delivery_partitions'`);
    assert.equal(progress.n, due.n, 'the deliveries of the dropped partitions, d_first and d_late among them, counted');

    // Why each kept partition stays, as the retention page says.
    const rules = await drop.attemptRules(30 * DAY, [{ accountId: LONGER, payloadMs: null, rowsMs: 60 * DAY }]);
    const holds = await dropDeliveries.deliveryPartitionHolds(rules, await list.listPartitions('service.deliveries'));
    assert.deepEqual(
      holds.map((h) => [h.partition, h.pending, h.accountKept]),
      [
        [D(39), 1, 0],
        [D(38), 0, 1],
      ],
    );
    // As the API answers one account: counted in its own deliveries alone (d_pending is ACCOUNT's, the longer kept LONGER's).
    const held = async (accountId: string) =>
      (await dropDeliveries.deliveryPartitionHolds(rules, await list.listPartitions('service.deliveries'), accountId)).map((h) => [
        h.partition,
        h.pending,
        h.accountKept,
      ]);
    assert.deepEqual(await held(ACCOUNT), [[D(39), 1, 0]]);
    assert.deepEqual(await held(LONGER), [[D(38), 0, 1]]);
    // Resolved, the pending one goes with its partition at the next pass.
    await run(`update service.deliveries set status = 'success', next_attempt_at = null where message_id = 'd_pending'`);
    await pass();
    assert.equal(await exists(D(39)), false, 'dropped once nothing in it must stay');
    assert.deepEqual(await left(['d_pending']), []);
  });

  test("a deliveries partition's later attempts are looked for in the attempts partitions up to each delivery's last update only", async () => {
    // An attempt updates its delivery in the statement that writes it, so none is newer than its delivery's updated_at (an
    // hour's margin for the sender's clock): each delivery's look stops at that partition, not at every one left.
    // The partition's other deliveries (m_longer's) last updated when they were made, as a resolved one is.
    await script(`update ${D(38)} set updated_at = created_at;
      ${delivered('d_plan', new Date(daysAgo(38).getTime() + 5 * 3_600_000), 'success', daysAgo(33))}`);
    const attempts = await list.listPartitions('service.attempts');
    const last = await dropDeliveries.lastUpdateOf(D(38), attempts[0].from);
    assert.equal(last?.toISOString(), daysAgo(33).toISOString(), "d_plan's update, its attempt's time, the partition's latest");
    const text = `select a.id ${dropDeliveries.laterAttemptsOf(D(38), attempts[0].from, last!)}`;
    assert.ok(
      (await run<{ id: string }>(text)).some((r) => r.id === 'atmpt_d_plan'),
      "d_plan's attempt, 5 days after its delivery's range, found",
    );
    const [row] = await run(`explain (analyze, format json) ${text}`);
    type TRun = { 'Relation Name'?: string; Plans?: TRun[]; 'Actual Loops'?: number };
    const read = (p: TRun): string[] => [
      ...(p['Relation Name']?.startsWith('attempts_p') && (p['Actual Loops'] ?? 0) > 0 ? [`service.${p['Relation Name']}`] : []),
      ...(p.Plans ?? []).flatMap(read),
    ];
    const [{ Plan }] = (typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN']) as { Plan: TRun }[];
    const upTo = last!.getTime() + 3_600_000;
    const within = attempts.filter((p) => p.from === null || p.from.getTime() <= upTo).map((p) => p.name);
    assert.ok(within.length < attempts.length, `attempts partitions after ${new Date(upTo).toISOString()} to leave out (${attempts.length} in all)`);
    const scanned = [...new Set(read(Plan))];
    assert.deepEqual(
      scanned.filter((p) => !within.includes(p)),
      [],
      `only partitions up to the last update read (${scanned.join(', ')})`,
    );
    assert.ok(scanned.length > 0, "the partition of d_plan's attempt read");
    // Their delete plans those partitions alone, on the table it deletes from too (before: every attempts partition).
    const [del] = await run(`explain (format json) ${dropDeliveries.deleteLaterAttemptsSql(D(38), attempts[0].from, last!)}`);
    const planned = (p: TRun): string[] => [
      ...(p['Relation Name']?.startsWith('attempts_p') ? [`service.${p['Relation Name']}`] : []),
      ...(p.Plans ?? []).flatMap(planned),
    ];
    const [{ Plan: delPlan }] = (typeof del['QUERY PLAN'] === 'string' ? JSON.parse(del['QUERY PLAN']) : del['QUERY PLAN']) as { Plan: TRun }[];
    const deletes = [...new Set(planned(delPlan))];
    plannedOnly(delPlan);
    assert.ok(deletes.length > 0, 'the delete plans the partitions it may delete from');
    assert.deepEqual(
      deletes.filter((p) => !within.includes(p)),
      [],
      `the delete plans partitions up to the last update only (${deletes.join(', ')})`,
    );
  });
});

describe('messages past their retention leave with their partition', () => {
  const M = (n: number) => `service.messages_p${daysAgo(n).toISOString().slice(0, 10).replaceAll('-', '')}`;
  /** A message of `account` made `at` for a donor; with `status`, its delivery in that state. */
  const made = (id: string, at: Date, status?: string, account = ACCOUNT) => `
    insert into service.messages (id, account_id, event_id, event_type, payload, created_at, tags) values
      ('${id}', '${account}', 'evt_${id}', 'grant.succeeded', '{"id":"${id}"}', ${iso(at)}, '{donor:${id}@example.org}');
    ${
      status
        ? `insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, next_attempt_at, created_at) values
      ('${id}', '${WEBHOOK}', '${account}', 'grant.succeeded', '${status}', 1, ${status === 'pending' ? "now() + interval '1 hour'" : 'null'}, ${iso(at)});`
        : ''
    }`;

  test("a pass drops the old ones after their range's deliveries, archived; keeps one a held message is in, which an erasure still reaches; finishes a killed drop", async () => {
    // Messages' partitions reshaped as the deliveries' were (their rows kept): a first one from MINVALUE, days 41 to 37
    // back, one from 36 days back to today, then the app's own ahead. The deliveries step left D(38) (m_longer's) and
    // D(36); the rows are put aside while the partitions are remade (a referenced partition goes only unreferenced).
    await script(`
      create table service.deliveries_kept as select * from service.deliveries;
      delete from service.deliveries;
      create table service.messages_kept as select * from service.messages;
      ${(await list.listPartitions('service.messages')).map((p) => `alter table service.messages detach partition ${p.name};\n drop table ${p.name};`).join('\n')}
      create table service.messages_p0 partition of service.messages for values from (minvalue) to (${iso(daysAgo(41))});
      ${[41, 40, 39, 38, 37].map((n) => `create table ${M(n)} partition of service.messages for values from (${iso(daysAgo(n))}) to (${iso(daysAgo(n - 1))});`).join('\n')}
      create table ${M(36)} partition of service.messages for values from (${iso(daysAgo(36))}) to (${iso(daysAgo(0))});`);
    await purge.ensureServicePartitions();
    await script(`
      insert into service.messages select * from service.messages_kept;
      insert into service.deliveries select * from service.deliveries_kept;
      drop table service.messages_kept;
      drop table service.deliveries_kept;
      ${made('x_first', daysAgo(45))}
      ${made('x_old', new Date(daysAgo(40).getTime() + 3_600_000))}
      ${made('x_killed', new Date(daysAgo(39).getTime() + 3_600_000))}
      ${made('x_pending', new Date(daysAgo(38).getTime() + 3_600_000), 'pending')}
      ${made('x_erased', new Date(daysAgo(38).getTime() + 7_200_000), 'success', LONGER)}
      ${made('x_37', new Date(daysAgo(37).getTime() + 3_600_000))}`);
    // A pass killed between its DETACH and its DROP: a lone messages table.
    await run(`alter table service.messages detach partition ${M(39)}`);

    await passUntilDropped(['service.messages_p0', M(41), M(40), M(39), M(37)]);
    const names = (await list.listPartitions('service.messages')).map((p) => p.name);
    for (const gone of ['service.messages_p0', M(41), M(40), M(39), M(37)]) {
      assert.ok(!names.includes(gone), `${gone} detached`);
      assert.equal(await exists(gone), false, `${gone} dropped, not only detached`);
    }
    assert.equal(names[0], M(38), 'the partition of a pending delivery and of a longer-kept account (m_longer, x_erased) stays, the oldest left');
    assert.deepEqual(await left(['x_first', 'x_old', 'x_killed', 'x_pending', 'x_erased', 'x_37', 'm_longer']), ['m_longer', 'x_erased', 'x_pending']);
    const [progress] = await run<{ n: number }>(`select purged::int as n from service.retention_progress where what = 'message_partitions'`);
    assert.ok(progress?.n >= 1, 'rows left by the drops counted');
    // The archive came first: each message dropped whole with its payload, once.
    const archived = fs
      .readdirSync(archive)
      .filter((f) => f.startsWith('messages-'))
      .flatMap((f) =>
        gunzipSync(fs.readFileSync(path.join(archive, f)))
          .toString()
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l) as { id: string; payload: string; purged: string });
    for (const id of ['x_first', 'x_old', 'x_37'])
      assert.deepEqual(
        archived.filter((a) => a.id === id).map((a) => [a.payload, a.purged]),
        [[`{"id":"${id}"}`, 'row']],
        `${id} archived once before it went`,
      );

    // Why the kept one stays, as the retention page and /metrics say.
    const rules = await drop.attemptRules(30 * DAY, [{ accountId: LONGER, payloadMs: null, rowsMs: 60 * DAY }]);
    const { messagePartitionHolds } = await import('../../lib/service/retention/drop-messages');
    const holds = await messagePartitionHolds(rules, await list.listPartitions('service.messages'));
    assert.deepEqual(
      holds.map((h) => [h.partition, h.pending, h.accountKept, h.until]),
      [[M(38), 1, 2, null]],
    );
    const status = (await partStatus.servicePartitionStatuses()).find((s) => s.table === 'service.messages')!;
    assert.deepEqual(
      status.held.map((h) => h.partition),
      [M(38)],
    );
    assert.equal(status.nextDrop?.partition, M(36));

    // A donor's erasure reaches a message in the old partition kept.
    const report = await erase.eraseDonor(LONGER, { email: 'x_erased@example.org' });
    assert.equal(report.messages.erased, 1);
    const [row] = await run<{ t: string; erased: boolean }>(
      `select tableoid::regclass::text as t, erased_at is not null as erased from service.messages where id = 'x_erased'`,
    );
    assert.deepEqual(row, { t: M(38), erased: true });
  });
});

/**
 * The partitions out of a plan's bounds were left out when it was planned, not removed as it ran ("Subplans Removed"): a
 * bound of a time plus an interval (a STABLE operator) has every partition planned first, which EXPLAIN does not show.
 */
function plannedOnly(plan: unknown): void {
  type TNode = { 'Subplans Removed'?: number; Plans?: TNode[]; 'Node Type'?: string; 'Relation Name'?: string; Alias?: string };
  const removed = (n: TNode): string[] => [
    ...(n['Subplans Removed']
      ? [`${n['Node Type']} over ${(n.Plans ?? []).map((c) => c.Alias ?? c['Relation Name']).join(', ')}: ${n['Subplans Removed']} removed`]
      : []),
    ...(n.Plans ?? []).flatMap(removed),
  ];
  const found = removed(plan as TNode);
  assert.deepEqual(found, [], 'partitions planned, then removed as the statement ran');
}

describe('window reads prune', () => {
  type TPlan = { 'Relation Name'?: string; Plans?: TPlan[] };
  const relations = (plan: TPlan): string[] => [...(plan['Relation Name'] ? [plan['Relation Name']] : []), ...(plan.Plans ?? []).flatMap(relations)];

  for (const window of ['24h', '7d'] as const) {
    test(`the ${window} health over attempts plans only the partitions of its window`, async () => {
      // The stats' own statement, as the app runs it, EXPLAINed in its place: a store whose execute plans instead of running.
      const conn = await db.getDb();
      const planned: string[][] = [];
      const explaining = {
        execute: async (query: ReturnType<typeof db.sql>) => {
          const { rows } = (await conn.execute(db.sql`explain (format json) ${query}`)) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
          const json = rows[0]['QUERY PLAN'];
          const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TPlan }[];
          plannedOnly(Plan);
          planned.push(relations(Plan));
          return { rows: [] };
        },
      } as unknown as Parameters<typeof buckets.queryAttemptCounts>[0];
      const now = new Date();
      const w = stats.statsWindow(window, now);
      await buckets.queryAttemptCounts(explaining, WEBHOOK, w);
      const parts = await list.listPartitions('service.attempts');
      const overlaps = (p: (typeof parts)[number]) => (p.from === null || p.from <= now) && (p.to === null || p.to > w.firstBucket);
      const want = parts.filter(overlaps).map((p) => p.name.replace(/^service\./, ''));
      assert.ok(want.length >= 1 && want.length < parts.length, `partitions beside the window's to leave out (${parts.length} in all)`);
      assert.deepEqual([...new Set(planned[0])].sort(), want.sort(), `only ${want.join(', ')}`);
    });
  }

  test("an attempts partition's hold reads the messages and deliveries partitions up to its end only", async () => {
    // A message is made before its attempts (its created_at the database's, theirs their sender's: an hour's margin), and
    // its deliveries share its created_at; over every partition, the oldest attempts partition's hold planned 125 at 62 days.
    const oldest = (await list.listPartitions('service.attempts')).find((p) => p.to !== null)!;
    const [{ 'QUERY PLAN': json }] = await run<{ 'QUERY PLAN': unknown }>(`explain (format json) ${drop.attemptHoldSql(oldest)}`, [30 * DAY, [], [], [], null]);
    const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TPlan }[];
    const upTo = async (table: string) => {
      const parts = await list.listPartitions(table);
      const kept = parts.filter((p) => p.from === null || p.from.getTime() < oldest.to!.getTime() + 3_600_000);
      assert.ok(kept.length >= 1 && kept.length < parts.length, `${table}: partitions after ${oldest.name}'s end to leave out (${parts.length} in all)`);
      return kept.map((p) => p.name);
    };
    const want = [oldest.name, ...(await upTo('service.messages')), ...(await upTo('service.deliveries'))].map((n) => n.replace(/^service\./, ''));
    assert.deepEqual([...new Set(relations(Plan))].sort(), want.sort());
    plannedOnly(Plan);
  });

  test("a messages partition's hold reads the deliveries partitions of its range only", async () => {
    // Its messages' deliveries share their created_at: bounded by each row's alone, the hold planned every deliveries
    // partition, at each drop.
    const parts = await list.listPartitions('service.messages');
    const part = parts.find((p) => p.from !== null && p.to !== null)!;
    const [{ 'QUERY PLAN': json }] = await run<{ 'QUERY PLAN': unknown }>(`explain (format json) ${dropMessages.messageHoldSql(part)}`, [
      30 * DAY,
      [],
      [],
      [],
      null,
    ]);
    const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TPlan }[];
    const deliveries = await list.listPartitions('service.deliveries');
    const meets = deliveries.filter((d) => !d.isDefault && (d.from === null || d.from < part.to!) && (d.to === null || d.to > part.from!));
    assert.ok(
      meets.length >= 1 && meets.length < deliveries.length,
      `deliveries partitions beside ${part.name}'s range to leave out (${deliveries.length} in all)`,
    );
    const want = [part.name, ...meets.map((d) => d.name)].map((n) => n.replace(/^service\./, ''));
    assert.deepEqual([...new Set(relations(Plan))].sort(), want.sort());
    plannedOnly(Plan);
  });
});
