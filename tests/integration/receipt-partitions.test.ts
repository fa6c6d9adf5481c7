import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import { eventually } from '../helpers/http';
import type * as TPurge from '../../lib/console/retention/purge-console';
import type * as TStatus from '../../lib/console/retention/receipt-partition-status';
import type * as TParts from '../../lib/console/receivers/receipt-partitions';
import type * as TSlots from '../../lib/db/partitions/id-slots';
import type * as TFailures from '../../lib/console/health/receiver-failures';
import type * as TTroubled from '../../lib/console/receivers/troubled-receipts';
import type * as TByMessage from '../../lib/console/receivers/receipts-by-message';
import type * as TSearch from '../../lib/console/search/search-receipts';
import type * as TReceipts from '../../lib/console/receivers/receipts';

// console.receipts partitioned by range of id, one interval of arrival each (migration 0038, issue 52), on a real
// database opened by the app's own code (PGlite, or PostgreSQL with TEST_DATABASE_URL): no app is started (a day's
// partition cannot be made old by waiting). The store is this file's own, so it reshapes the partitions as it needs.
// The upkeep opens the next partition at an interval's start; the console's window reads plan only the partitions
// of their window (EXPLAIN of each statement they send, with its parameters).

const DAY = 86_400_000;
const SLOT = 10_000_000_000;
const RECEIVER = '0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e';
const midnight = new Date(Math.floor(Date.now() / DAY) * DAY);
const daysAgo = (n: number) => new Date(midnight.getTime() - n * DAY);

const archive = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-receipt-parts-archive-'));
let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let parts: typeof TParts;
let slots: typeof TSlots;

before(async () => {
  // Read by the retention test, the last: nothing before it runs a purge.
  Object.assign(process.env, { RECEIPT_RETENTION: '30d', RECEIPT_BODY_RETENTION: '30d', ARCHIVE_DIR: archive });
  opened = await openTestDatabase('receipt-partitions');
  db = opened.client;
  parts = await import('../../lib/console/receivers/receipt-partitions');
  slots = await import('../../lib/db/partitions/id-slots');
});
after(async () => {
  await opened?.close();
  fs.rmSync(archive, { recursive: true, force: true });
});

const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);
const spans = () => slots.listIdSpans({ table: 'console.receipts', spans: 'console.receipt_partitions' });
const receipt = (id: number | null, at: Date, verdict = 'invalid', status = 200, message = `msg_${id ?? 'new'}`) =>
  run<{ id: string; part: string }>(
    `insert into console.receipts (${id === null ? '' : 'id, '}receiver_id, method, path, headers, body, body_size, verdict, response_status, message_id, received_at, body_json)
     values (${id === null ? '' : `${id}, `}$1, 'POST', '/ingest/parts', '[]', convert_to('{"amount":7}', 'UTF8'), 12, $2, $3, $4, $5, '{"amount":7}')
     returning id::text, tableoid::regclass::text as part`,
    [RECEIVER, verdict, status, message, at.toISOString()],
  );

describe('the upkeep of receipts partitions', () => {
  test("an interval's first upkeep moves the sequence to the partition made ahead, records it opened and the one before closed, and makes the next", async () => {
    await run(`insert into console.receivers (id, slug, name) values ($1, 'parts', 'parts')`, [RECEIVER]);
    await parts.ensureReceiptPartitions();
    const before = await spans();
    const open = before.find((s) => s.openedAt && !s.closedAt)!;
    const ahead = before.find((s) => s.firstId === open.endId)!;
    assert.ok(ahead && !ahead.openedAt, `one made ahead of ${open.name}: ${JSON.stringify(before)}`);
    const [now] = await receipt(null, new Date());
    assert.equal(now.part, `console.${open.name}`, 'an arrival takes an id of the open partition');
    // Again in the same interval: nothing moves.
    assert.deepEqual(await parts.ensureReceiptPartitions(), []);
    assert.deepEqual(await spans(), before);

    // The first upkeep of an interval 8 days on (a day or a week later).
    const made = await parts.ensureReceiptPartitions(new Date(Date.now() + 8 * DAY));
    const after = await spans();
    const was = after.find((s) => s.name === open.name)!;
    const next = after.find((s) => s.name === ahead.name)!;
    assert.ok(was.closedAt && next.openedAt && next.openedAt >= was.closedAt, JSON.stringify(after));
    assert.deepEqual(made, [`console.receipts_p${next.endId / SLOT}`], 'and the one after made ahead');
    const [later] = await receipt(null, new Date());
    assert.equal(later.part, `console.${next.name}`, 'the next arrival takes the first id of the next partition');
    assert.equal(Number(later.id), next.firstId);
  });
});

describe('window reads prune', () => {
  type TPlan = { 'Relation Name'?: string; Alias?: string; 'Actual Loops'?: number; Plans?: TPlan[] };
  // The scans of the window's own receipts (alias r, or receipts unaliased): not of a subquery's look for another arrival of the same message.
  const windowScans = (plan: TPlan): string[] => [
    ...(plan['Relation Name'] && /^(r|receipts)(_\d+)?$/.test(plan.Alias ?? '') ? [plan['Relation Name']] : []),
    ...(plan.Plans ?? []).flatMap(windowScans),
  ];

  /** The statements over console.receipts that `read` sends (through the driver and through drizzle), each EXPLAINed with its parameters. */
  async function plannedBy(read: () => Promise<unknown>, scans: (plan: TPlan) => string[] = windowScans, explain = 'format json'): Promise<string[][]> {
    const handle = await db.storeHandle();
    const client = ((await db.getDb()) as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const sent = new Map<string, [string, unknown[]]>();
    const note = (text: string, params: unknown[]) => {
      if (/console\.receipts\b|"console"\."receipts"/.test(text) && !/^\s*explain/i.test(text)) sent.set(JSON.stringify([text, params]), [text, params]);
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
    assert.ok(sent.size > 0, 'the read sent a statement over console.receipts');
    const plans: string[][] = [];
    for (const [text, params] of sent.values()) {
      const [row] = await run<{ 'QUERY PLAN': unknown }>(`explain (${explain}) ${text}`, params);
      const json = row['QUERY PLAN'];
      const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: TPlan }[];
      plans.push([...new Set(scans(Plan))].sort());
    }
    return plans;
  }

  test('the health, problems, search and reconciliation over receipts plan only the partitions of their window', async () => {
    // 40 daily partitions, 39 days back to today's: each opened at its midnight and closed at the next, with two
    // troubled arrivals that day; today's is open, one more made ahead. The template's own give way (receipts_p0 stays).
    for (const s of await spans()) {
      if (s.name === 'receipts_p0') continue;
      await run(`alter table console.receipts detach partition console.${s.name}`);
      await run(`drop table console.${s.name}`);
      await run(`delete from console.receipt_partitions where name = $1`, [s.name]);
    }
    await run(`update console.receipt_partitions set closed_at = $1 where name = 'receipts_p0'`, [daysAgo(39)]);
    for (let k = 1; k <= 41; k++) {
      const [from, to] = [k * SLOT, (k + 1) * SLOT];
      await run(`create table console.receipts_p${k} partition of console.receipts for values from (${from}) to (${to})`);
      // p1 opened 39 days back … p40 today (open), p41 made ahead.
      const openedAt = k <= 40 ? daysAgo(40 - k) : null;
      const closedAt = k < 40 ? daysAgo(39 - k) : null;
      await run(`insert into console.receipt_partitions (name, first_id, end_id, opened_at, closed_at) values ($1, $2, $3, $4, $5)`, [
        `receipts_p${k}`,
        from,
        to,
        openedAt,
        closedAt,
      ]);
      if (openedAt && openedAt.getTime() + 7_200_000 < Date.now()) {
        await receipt(from + 1, new Date(openedAt.getTime() + 3_600_000), 'invalid', 200, `msg_day${k}`);
        await receipt(from + 2, new Date(openedAt.getTime() + 7_200_000), 'valid', 500, `msg_day${k}_b`);
      }
    }
    await run(`select setval('console.receipts_id_seq', ${40 * SLOT + 100}, false)`);
    await run(`analyze console.receipts`);
    const all = await spans();
    assert.equal(all.length, 42);
    // ensureReceiptPartitions cleared nothing here: the spans the reads use are read afresh.
    await parts.ensureReceiptPartitions();

    const failures = (await import('../../lib/console/health/receiver-failures')) as typeof TFailures;
    const troubled = (await import('../../lib/console/receivers/troubled-receipts')) as typeof TTroubled;
    const byMessage = (await import('../../lib/console/receivers/receipts-by-message')) as typeof TByMessage;
    const search = (await import('../../lib/console/search/search-receipts')) as typeof TSearch;
    const now = new Date();
    const reads: [string, Date, () => Promise<unknown>][] = [
      ['health 24 h', new Date(now.getTime() - DAY), () => failures.receiverFailures([RECEIVER], new Date(now.getTime() - DAY))],
      ['health 7 d', new Date(now.getTime() - 7 * DAY), () => failures.receiverFailures([RECEIVER], new Date(now.getTime() - 7 * DAY))],
      ['problems 7 d', daysAgo(7), () => troubled.troubledReceiptsPage([RECEIVER], daysAgo(7), now, null, 50)],
      ['problems, answered 2xx unverified', daysAgo(7), () => troubled.countAnsweredWithBadSignature([RECEIVER], daysAgo(7), now, 100)],
      ['problems, suspicious', daysAgo(7), () => troubled.countSuspiciousArrivals([RECEIVER], daysAgo(7), now, 100)],
      ['troubled messages', daysAgo(3), () => byMessage.troubledMessageIds([RECEIVER], daysAgo(3), now)],
      ['reconciliation of a day', daysAgo(5), () => byMessage.receiptMarksAt(['msg_day36', 'msg_day20'], [RECEIVER], daysAgo(5))],
      ['search 7 d', daysAgo(7), () => search.searchReceipts({ kind: 'payload-text', text: '7' }, { since: daysAgo(7), until: now }, 20)],
    ];
    for (const [name, since, read] of reads) {
      // The partitions a row that arrived since `since` can be in: those not closed before it.
      const want = all.filter((s) => !s.closedAt || s.closedAt >= since).map((s) => s.name);
      assert.ok(want.length >= 2 && want.length <= 10, `${name}: ${want.length} of ${all.length} partitions in the window`);
      for (const planned of await plannedBy(read)) assert.deepEqual(planned, [...want].sort(), `${name}: only ${want.join(', ')}`);
    }
  });
  test('the hour recounted after a drop plans the partitions that may hold its arrivals alone, planned rather than removed as it runs', async () => {
    const drop = await import('../../lib/console/retention/drop-receipts');
    const all = await spans();
    // The close of p19 (20 days back, a midnight): its hour's arrivals are in p20, opened then.
    const closed = all.find((s) => s.name === 'receipts_p19')!.closedAt!;
    const { from, to } = drop.hourIds(all, closed);
    assert.deepEqual([from, to], [20 * SLOT, 21 * SLOT]);
    // The body purge's end for a cutoff at p19's close: p20 (opened then) may hold an arrival from before it, p21 not.
    assert.equal(drop.idsBefore(all, closed), 21 * SLOT);
    assert.equal(drop.idsBefore(all, daysAgo(45)), 1 * SLOT, 'before any was opened: receipts_p0 alone');
    // Half past: p20 still, and none of an hour p20 was not open in.
    assert.deepEqual(drop.hourIds(all, new Date(closed.getTime() + 1_800_000)), { from: 20 * SLOT, to: 21 * SLOT });
    const [row] = await run<{ 'QUERY PLAN': unknown }>(`explain (format json) ${drop.recountHoursSql}`, [closed.toISOString(), from, to]);
    const json = row['QUERY PLAN'];
    const text = typeof json === 'string' ? json : JSON.stringify(json);
    const scanned = [...new Set([...text.matchAll(/"Relation Name": ?"(receipts_p\d+)"/g)].map((m) => m[1]))];
    assert.deepEqual(scanned, ['receipts_p20']);
    assert.ok(!/"Subplans Removed": ?[1-9]/.test(text), 'the partitions out of the bounds were not planned (then removed as it ran)');
  });

  test("reads by message id plan only the partitions from the message's time, the duplicate check's too; an id that is no KSUID reads them all", async () => {
    // The layout of the test above. A message made 20 days back (in p20's day) and one made 2 days back, each received at
    // p20 or p37 and again later: valid and answered 200, so the second copy is a duplicate (no troubled hour, no receipt
    // in p1 … p9, which the retention test below counts).
    const byMessage = (await import('../../lib/console/receivers/receipts-by-message')) as typeof TByMessage;
    const { default: KSUID } = await import('ksuid');
    const made = (at: Date) => `msg_${KSUID.fromParts(at.getTime(), Buffer.alloc(16, 7)).string}`;
    const old = made(new Date(daysAgo(20).getTime() + 1_800_000));
    const recent = made(new Date(daysAgo(2).getTime() + 1_800_000));
    await receipt(20 * SLOT + 10, new Date(daysAgo(20).getTime() + 3_600_000), 'valid', 200, old);
    await receipt(25 * SLOT + 10, new Date(daysAgo(15).getTime() + 3_600_000), 'valid', 200, old);
    await receipt(37 * SLOT + 10, new Date(daysAgo(2).getTime() + 3_600_000), 'valid', 200, recent);
    const all = await spans();
    // Those not closed before the message was made, less the hour a sender's clock may run ahead (lib/ids.ts).
    const from = (id: string) => {
      const since = new Date(Number(KSUID.parse(id.slice(4)).date) - 3_600_000);
      return all.filter((s) => !s.closedAt || s.closedAt >= since).map((s) => s.name);
    };
    assert.equal(from(old).length, 23, 'p19 (closed within the hour before) … p41');
    assert.equal(from(recent).length, 5);
    const everyScan = (plan: TPlan): string[] => [...(plan['Relation Name'] ? [plan['Relation Name']] : []), ...(plan.Plans ?? []).flatMap(everyScan)];
    const planned = async (want: string[], read: () => Promise<unknown>) => {
      for (const scans of await plannedBy(read, everyScan)) assert.deepEqual(scans, [...want].sort());
    };
    const at = () => byMessage.receiptSummariesAt([old], [RECEIVER]);
    await planned(from(old), at);
    const copies = (await at()).get(byMessage.receiptKey(old, RECEIVER)) ?? [];
    assert.deepEqual(
      copies.map((r) => [r.id, r.duplicate]),
      [
        [20 * SLOT + 10, false],
        [25 * SLOT + 10, true],
      ],
      'both copies found, the second a duplicate of the first',
    );
    await planned(from(old), () => byMessage.receiptSummariesAt([recent, old], [RECEIVER]));
    await planned(from(recent), () => byMessage.receiptSummariesOf([recent]));
    assert.deepEqual(
      (await byMessage.receiptSummariesOf([recent, old])).map((r) => r.id),
      [20 * SLOT + 10, 25 * SLOT + 10, 37 * SLOT + 10],
    );
    // A receipt read by id (its page, a forward): its duplicate flag looks for the earlier copy from its message's time on.
    const stored = (await import('../../lib/console/receivers/receipts')) as typeof TReceipts;
    const earlierScans = (plan: TPlan): string[] => [
      ...(plan['Relation Name'] && /^earlier/.test(plan.Alias ?? '') ? [plan['Relation Name']] : []),
      ...(plan.Plans ?? []).flatMap(earlierScans),
    ];
    const looks = (await plannedBy(() => stored.getReceipt(25 * SLOT + 10), earlierScans)).filter((scans) => scans.length);
    assert.deepEqual(looks, [[...from(old)].sort()]);
    assert.equal((await stored.getReceipt(25 * SLOT + 10))?.duplicate, true);
    assert.equal((await stored.getReceipt(20 * SLOT + 10))?.duplicate, false);
    assert.deepEqual(
      (await stored.getReceipts([37 * SLOT + 10, 25 * SLOT + 10])).map((r) => [r.id, r.duplicate]),
      [
        [25 * SLOT + 10, true],
        [37 * SLOT + 10, false],
      ],
    );
    // The problems view's counts look, for each unverified arrival answered 2xx, for a verified one before it (not the
    // row's own partitions: the message's), on a receiver of their own (the retention test counts the first one's hours).
    // A message made 3 days back verified in p37 and copied unverified in p38: suspicious; one made 2 days back only
    // unverified in p38: answered with a bad signature. Run, each look reads no partition before its message's time.
    const troubled = (await import('../../lib/console/receivers/troubled-receipts')) as typeof TTroubled;
    const other = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
    await run(`insert into console.receivers (id, slug, name) values ($1, 'parts-2', 'parts 2')`, [other]);
    const [suspicious, bad] = [made(new Date(daysAgo(3).getTime() + 1_800_000)), made(new Date(daysAgo(2).getTime() + 1_800_000))];
    const arrival = (id: number, at: Date, verdict: string, message: string) =>
      run(
        `insert into console.receipts (id, receiver_id, method, path, headers, body_size, verdict, response_status, message_id, received_at)
         values ($1, $2, 'POST', '/ingest/parts-2', '[]', 0, $3, 200, $4, $5)`,
        [id, other, verdict, message, at.toISOString()],
      );
    await arrival(37 * SLOT + 20, new Date(daysAgo(3).getTime() + 3_600_000), 'valid', suspicious);
    await arrival(38 * SLOT + 20, new Date(daysAgo(2).getTime() + 3_600_000), 'invalid', suspicious);
    await arrival(38 * SLOT + 21, new Date(daysAgo(2).getTime() + 3_600_000), 'invalid', bad);
    const [since, until] = [daysAgo(2), new Date()];
    assert.deepEqual([...(await troubled.countSuspiciousArrivals([other], since, until, 10))], [[other, { count: 1, capped: false }]]);
    assert.deepEqual([...(await troubled.countAnsweredWithBadSignature([other], since, until, 10))], [[other, { count: 1, capped: false }]]);
    const looked = (plan: TPlan): string[] => [
      ...(plan['Relation Name'] && /^g(_\d+)?$/.test(plan.Alias ?? '') && (plan['Actual Loops'] ?? 0) > 0 ? [plan['Relation Name']] : []),
      ...(plan.Plans ?? []).flatMap(looked),
    ];
    // Both counts look at both rows of the window: none reads a partition before the older message's time (p36 on).
    for (const read of [
      () => troubled.countSuspiciousArrivals([other], since, until, 10),
      () => troubled.countAnsweredWithBadSignature([other], since, until, 10),
    ]) {
      const reads = (await plannedBy(read, looked, 'analyze, format json')).flat();
      assert.ok(reads.length > 0, 'a look ran');
      assert.deepEqual(
        reads.filter((name) => !from(suspicious).includes(name)),
        [],
        `no partition before the messages' time: ${reads.join(', ')}`,
      );
    }
    // An id that is not a KSUID (or a seeded one, whose "time" is in the future): every partition, its receipts found.
    const names = all.map((s) => s.name);
    await planned(names, () => byMessage.receiptSummariesAt(['msg_day36'], [RECEIVER]));
    await planned(names, () => byMessage.receiptSummariesOf([old, 'msg_Scale0000000000000000000042']));
    assert.deepEqual(
      (await byMessage.receiptSummariesOf(['msg_day36'])).map((r) => r.id),
      [36 * SLOT + 1],
    );
  });
});

describe('receipts past their retention leave with their partition', () => {
  test('a pass archives and drops the partitions closed before the cutoff with their forwards and hours, keeps the rest, and drops one a killed pass detached', async () => {
    // The layout of the window test: receipts_p0 closed 39 days back, p1 … p39 a day each (p9 closed 30 days back), p40 today's.
    const purge = (await import('../../lib/console/retention/purge-console')) as typeof TPurge;
    const status = (await import('../../lib/console/retention/receipt-partition-status')) as typeof TStatus;
    const forward = (receiptId: number) =>
      run(
        `insert into console.forwards (receipt_id, actor, url, mode, method, sent_headers, status, elapsed_ms, response_body)
         values ($1, 'staff@example.org', 'http://127.0.0.1:9/', 'verbatim', 'POST', '[]', 200, 3, 'ok')`,
        [receiptId],
      );
    await forward(5 * SLOT + 1);
    await forward(20 * SLOT + 1);
    const before = await status.receiptPartitionStatus();
    assert.equal(before.nextDrop?.partition, 'console.receipts_p0');
    assert.equal(before.nextDrop?.at, new Date(daysAgo(39).getTime() + 30 * DAY).toISOString(), 'its close + RECEIPT_RETENTION');
    // A pass killed after detaching p9 (before dropping it): a lone table, no one's partition.
    await run(`alter table console.receipts detach partition console.receipts_p9`);
    const kept = async () => (await run<{ n: number }>(`select count(*)::int as n from console.receipts where id >= $1`, [10 * SLOT]))[0].n;
    const keptBefore = await kept();
    assert.ok(keptBefore >= 60);

    // Passes of the console's real purge loop until p9 is gone: a pass drops for a second at most, the rest go at the next.
    for (let n = 0; n < 10 && (await spans()).some((s) => s.name === 'receipts_p8'); n++) {
      const [{ at }] = await run<{ at: string }>(`select now()::text as at`);
      purge.startConsolePurge();
      await eventually(
        async () => (await run(`select 1 from console.retention_progress where what = 'pass' and pass_ended_at > $1::timestamptz`, [at])).length > 0,
        30_000,
        'a pass to end',
      );
      await purge.stopConsolePurge();
    }
    const left = (await spans()).map((s) => s.name);
    assert.deepEqual(
      left,
      Array.from({ length: 32 }, (_, i) => `receipts_p${i + 10}`),
      'p0 … p9 gone, p10 on kept',
    );
    for (const gone of ['receipts_p0', 'receipts_p5', 'receipts_p9'])
      assert.equal((await run<{ t: string | null }>(`select to_regclass($1)::text as t`, [`console.${gone}`]))[0].t, null, `${gone} dropped`);
    assert.equal(await kept(), keptBefore, 'the receipts of p10 on stay, none deleted row by row before their partition goes');
    assert.equal((await run<{ n: number }>(`select count(*)::int as n from console.receipts where id < $1`, [10 * SLOT]))[0].n, 0);
    const forwards = await run<{ id: string }>(`select receipt_id::text as id from console.forwards order by 1`);
    assert.deepEqual(
      forwards.map((f) => f.id),
      [String(20 * SLOT + 1)],
      "the dropped receipt's forward went with it",
    );
    // Each receipt of p1 … p8 archived once (a lone table is dropped as it is: the pass that detached it archived it first).
    const archived = fs
      .readdirSync(archive)
      .filter((f) => f.startsWith('receipts-'))
      .flatMap((f) =>
        gunzipSync(fs.readFileSync(path.join(archive, f)))
          .toString()
          .trim()
          .split('\n'),
      )
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; purged: string });
    const ids = archived.map((r) => r.id).sort((a, b) => a - b);
    assert.deepEqual(ids, Array.from({ length: 8 }, (_, i) => [(i + 1) * SLOT + 1, (i + 1) * SLOT + 2]).flat(), 'p1 … p8 archived, each receipt once');
    assert.ok(archived.every((r) => r.purged === 'row'));
    // The hourly counts of troubled arrivals: none left for the dropped days, those of the days kept as they were.
    const hours = await run<{ hour: Date | string; failures: number }>(
      `select hour, failures from console.receipt_trouble_hours where receiver_id = $1 and hour < $2 order by hour`,
      [RECEIVER, daysAgo(1)],
    );
    assert.ok(hours.length > 0 && hours.every((h) => new Date(h.hour) >= daysAgo(30)), JSON.stringify(hours.slice(0, 3)));
    assert.equal(hours.length, 2 * 29, 'two troubled hours a day for p10 … p38');
    const [progress] = await run<{ n: string }>(`select purged::text as n from console.retention_progress where what = 'receipt_partitions'`);
    assert.equal(progress.n, String(2 * 8), 'p0 (empty) … p8 counted; the lone p9 was the killed one to count');
    const after = await status.receiptPartitionStatus();
    assert.equal(after.nextDrop?.partition, 'console.receipts_p10');
  });
});
