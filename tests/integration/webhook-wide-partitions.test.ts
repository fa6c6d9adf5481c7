import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type { TPartition } from '../../lib/db/partitions/list-partitions';

// Statements that act on one webhook's deliveries or attempts across all time — a resume's and a cap change's slotting, a
// retry now and its preview, a donor erasure's writes, the stats' newest success, newest attempt and failing streak — plan
// only the partitions of the rows they concern (their span, read first from the delivery queue, the donor's messages, or
// the stats' histograms), not every partition of the year; a webhook's message stream (an export) joins a page's rows
// alone. Each statement such a call sends over messages, deliveries or attempts (caught at the driver, in its transaction
// too) is EXPLAINed with its parameters, against 60 days of partitions made ahead. PostgreSQL only: daily partitions, and
// its driver's client is where every statement passes.

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
const run = (text: string, params: unknown[] = []) => db.driverRows<Record<string, unknown>>(text, params);
const HOUR = 3_600_000;
const TABLES = ['messages', 'deliveries', 'attempts'] as const;
type TTable = (typeof TABLES)[number];
const partitions = {} as Record<TTable, TPartition[]>;

before(async () => {
  if (!postgres) return;
  opened = await openTestDatabase('webhook-wide');
  db = opened.client;
  const { ensureServicePartitions } = await import('../../lib/service/retention/purge-service');
  const manage = await import('../../lib/db/partitions/manage-partitions');
  const { listPartitions } = await import('../../lib/db/partitions/list-partitions');
  await ensureServicePartitions();
  for (const table of TABLES) {
    const lease = { table: 'service.leases', name: `partitions-service.${table}` } as const;
    // A day at a time: a gap is made one partition.
    for (let day = 1; day <= 60; day++)
      await manage.ensurePartitions({ table: `service.${table}`, interval: 'day', lease }, new Date(Date.now() + day * 86_400_000));
    partitions[table] = await listPartitions(`service.${table}`);
  }
});
after(async () => {
  await opened?.close();
});

type TPlan = { 'Relation Name'?: string; Plans?: TPlan[] };
const scans = (plan: TPlan): string[] => [...(plan['Relation Name'] ? [plan['Relation Name']] : []), ...(plan.Plans ?? []).flatMap(scans)];

/** Each statement over messages, deliveries or attempts that `act` sends, with the partitions of each table its plan names. */
async function plannedBy(act: () => Promise<unknown>): Promise<{ text: string; params: unknown[]; parts: Record<TTable, string[]> }[]> {
  const pg = (await import('pg')).default;
  const query = pg.Client.prototype.query;
  const sent = new Map<string, [string, unknown[]]>();
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [a, b] = args as [string | { text: string; values?: unknown[] }, unknown];
    const [text, params] = typeof a === 'string' ? [a, Array.isArray(b) ? b : []] : [a.text, Array.isArray(b) ? b : (a.values ?? [])];
    if (/service\.(messages|deliveries|attempts)\b|"service"\."(messages|deliveries|attempts)"/.test(text))
      sent.set(JSON.stringify([text, params]), [text, params]);
    return (query as (...x: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await act();
  } finally {
    pg.Client.prototype.query = query;
  }
  const plans = [];
  for (const [text, params] of sent.values()) {
    const [row] = await run(`explain (format json) ${text}`, params);
    const [{ Plan }] = row['QUERY PLAN'] as { Plan: TPlan }[];
    const names = scans(Plan);
    const of = (table: TTable) => [...new Set(names.filter((n) => n.startsWith(`${table}_p`)))].sort();
    plans.push({ text, params, parts: { messages: of('messages'), deliveries: of('deliveries'), attempts: of('attempts') } });
  }
  return plans;
}

/** The partitions of `table` whose range meets [from, to]. */
const meeting = (table: TTable, from: Date, to: Date) =>
  partitions[table].filter((p) => (p.from === null || p.from <= to) && (p.to === null || p.to > from)).map((p) => p.name.replace('service.', ''));

/** Asserts that `act` plans, in each of `tables`, only partitions meeting its span there (none without), and some partition of `must`. */
async function assertPlans(
  name: string,
  act: () => Promise<unknown>,
  spans: Partial<Record<TTable, [Date, Date]>>,
  must: TTable,
  tables: readonly TTable[] = TABLES,
) {
  const plans = await plannedBy(act);
  for (const table of tables) {
    const span = spans[table];
    const allowed = span ? meeting(table, ...span) : [];
    assert.ok(partitions[table].length >= 60, `${table}: ${partitions[table].length} partitions`);
    assert.ok(allowed.length <= 3, `${name}: ${table}'s span meets ${allowed}`);
    for (const { text, parts } of plans)
      assert.deepEqual(
        parts[table].filter((p) => !allowed.includes(p)),
        [],
        `${name}: ${table} partitions outside ${allowed.join(', ') || 'none'} planned by\n${text}`,
      );
  }
  assert.ok(
    plans.some((p) => p.parts[must].length > 0),
    `${name}: a statement planned a ${must} partition (${plans.length} statements)`,
  );
}

let serial = 0;
/** An account and a webhook of it; `columns`: the webhook's own. */
async function webhookOf(columns: { paused_at?: Date; rate_limit?: number } = {}) {
  const account = randomUUID();
  const webhook = `ep_${`wide${++serial}`.padEnd(27, '0')}`;
  await run(`insert into service.accounts (id, name) values ($1, $2)`, [account, `wide ${serial}`]);
  await run(
    `insert into service.webhooks (id, account_id, url, event_types, paused_at, rate_limit) values ($1, $2, 'http://127.0.0.1:9/', '{grant.succeeded}', $3, $4)`,
    [webhook, account, columns.paused_at ?? null, columns.rate_limit ?? null],
  );
  return { account, webhook };
}

/** A message of `ago` ms back with its delivery to the webhook (`delivery`: its columns); the message's id. */
async function deliveryOf(w: { account: string; webhook: string }, ago: number, delivery: Record<string, unknown>, tags: string[] = []) {
  const { default: KSUID } = await import('ksuid');
  const at = new Date(Date.now() - ago);
  const id = `msg_${KSUID.fromParts(at.getTime(), randomBytes(16)).string}`;
  const cols = Object.keys(delivery);
  await run(
    `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, tags, created_at)
                values ($1, $2, $3, 'grant.succeeded', '{"donor":"x"}', $5::text[], $4) returning id, created_at)
     insert into service.deliveries (message_id, webhook_id, account_id, event_type, created_at${cols.map((c) => `, ${c}`).join('')})
       select id, $6, $2, 'grant.succeeded', created_at${cols.map((_, i) => `, $${7 + i}`).join('')} from m`,
    [id, w.account, `evt_${id.slice(4)}`, at.toISOString(), `{${tags.join(',')}}`, w.webhook, ...Object.values(delivery)],
  );
  return { id, at };
}

/** An attempt of the message's delivery, `ago` ms back. */
async function attemptOf(w: { account: string; webhook: string }, messageId: string, ago: number, status: 'success' | 'failed') {
  const { default: KSUID } = await import('ksuid');
  const at = new Date(Date.now() - ago);
  await run(
    `insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
     select $1, d.id, $2, $3, $4, 'http://127.0.0.1:9/', $5, $6, $7, 12, 'the answer', 'scheduled' from service.deliveries d where d.message_id = $2 and d.webhook_id = $3`,
    [
      `atmpt_${KSUID.fromParts(at.getTime(), randomBytes(16)).string}`,
      messageId,
      w.webhook,
      w.account,
      at.toISOString(),
      status,
      status === 'success' ? 200 : 500,
    ],
  );
  return at;
}

const settled = { status: 'delivered', attempt_count: 1 };
const OLD = 20 * 86_400_000; // in the first partition, from MINVALUE: settled rows there are not what a write concerns

describe('webhook-wide statements plan the partitions of their rows alone', { skip: !postgres && 'PostgreSQL only' }, () => {
  test("a resume's slotting: the partitions of the parked deliveries' span", async () => {
    const { updateWebhook } = await import('../../lib/service/webhooks/update-webhook');
    const w = await webhookOf({ paused_at: new Date() });
    await deliveryOf(w, OLD, settled);
    const parked = [await deliveryOf(w, 3 * HOUR, { status: 'pending' }), await deliveryOf(w, 1 * HOUR, { status: 'pending' })];
    await assertPlans('resume', () => updateWebhook(w.account, w.webhook, { paused: false }), { deliveries: [parked[0].at, parked[1].at] }, 'deliveries');
    const [row] = await run(`select count(*)::int as n from service.deliveries where webhook_id = $1 and next_attempt_at = created_at`, [w.webhook]);
    assert.equal(row.n, 2, 'both made due at their creation time');
  });

  test("a cap change's slotting: the partitions of the slotted deliveries' span", async () => {
    const { updateWebhook } = await import('../../lib/service/webhooks/update-webhook');
    const w = await webhookOf({ rate_limit: 1 });
    await run(`insert into service.webhook_rates (webhook_id, next_at) values ($1, now() + interval '1 hour')`, [w.webhook]);
    await deliveryOf(w, OLD, settled);
    const later = new Date(Date.now() + 2 * HOUR);
    const slotted = [
      await deliveryOf(w, 2 * HOUR, { status: 'pending', next_attempt_at: later, slot_at: later }),
      await deliveryOf(w, 1 * HOUR, { status: 'pending', next_attempt_at: later, slot_at: later }),
    ];
    await assertPlans('cap change', () => updateWebhook(w.account, w.webhook, { rateLimit: 10 }), { deliveries: [slotted[0].at, slotted[1].at] }, 'deliveries');
    const [row] = await run(`select count(*)::int as n from service.deliveries where webhook_id = $1 and slot_at < $2`, [w.webhook, later.toISOString()]);
    assert.equal(row.n, 2, 'both given a slot of the new cap, from now');
  });

  test('retry now and its preview: the partitions of the waiting retries, not of the 14-day window', async () => {
    const { retryPendingNow, countRetryPending } = await import('../../lib/service/recover/retry-pending');
    const w = await webhookOf();
    const later = new Date(Date.now() + 6 * HOUR);
    await deliveryOf(w, 5 * 86_400_000, settled);
    const waiting = await deliveryOf(w, 2 * HOUR, { status: 'pending', scheduled_attempt_count: 1, attempt_count: 1, next_attempt_at: later });
    const window = { since: new Date(Date.now() - 13 * 86_400_000), until: null };
    const span = { deliveries: [waiting.at, waiting.at] as [Date, Date] };
    await assertPlans(
      'retry-pending preview',
      async () => assert.equal((await countRetryPending(w.account, w.webhook, window)).messages, 1),
      span,
      'deliveries',
    );
    await assertPlans('retry-pending', async () => assert.equal((await retryPendingNow(w.account, w.webhook, window)).messages, 1), span, 'deliveries');
  });

  test("a donor erasure's writes: the partitions of the donor's messages, and of their attempts since; its read of them, every one", async () => {
    const { eraseDonor } = await import('../../lib/service/erasures/erase-donor');
    const w = await webhookOf();
    const email = 'wide.donor@example.org';
    await deliveryOf(w, OLD, settled);
    // Two days apart: the partitions of those two days, not of the day between.
    const first = await deliveryOf(w, 2 * 86_400_000, settled, [`donor:${email}`]);
    const second = await deliveryOf(w, HOUR, { status: 'pending', attempt_count: 1, next_attempt_at: new Date(Date.now() + HOUR) }, [`donor:${email}`]);
    await attemptOf(w, first.id, 2 * 86_400_000 - 1000, 'success');
    await attemptOf(w, second.id, HOUR - 1000, 'failed');
    const theirs = (table: TTable) => [...new Set([...meeting(table, first.at, first.at), ...meeting(table, second.at, second.at)])];
    const since = meeting('attempts', new Date(first.at.getTime() - HOUR), new Date(Date.now() + HOUR));
    const finds = (text: string) => / tags && /.test(text);
    for (const dryRun of [true, false]) {
      const plans = await plannedBy(() => eraseDonor(w.account, { email }, { dryRun }));
      const read = plans.find((p) => finds(p.text));
      assert.equal(read?.parts.messages.length, partitions.messages.length, 'the search for the donor: every messages partition (ARCHITECTURE.md)');
      const writes = plans.filter((p) => !finds(p.text));
      assert.ok(
        writes.some((p) => p.parts.attempts.length > 0) && (dryRun || writes.some((p) => p.parts.messages.length > 0)),
        `dry run ${dryRun}: statements`,
      );
      for (const { text, parts } of writes) {
        assert.ok(since.length <= 4, `attempts since: ${since}`);
        for (const [table, allowed] of [
          ['messages', theirs('messages')],
          ['deliveries', theirs('deliveries')],
          ['attempts', since],
        ] as const)
          assert.deepEqual(
            parts[table].filter((p) => !allowed.includes(p)),
            [],
            `erasure (dry run ${dryRun}): ${table} outside ${allowed.join(', ')} in\n${text}`,
          );
      }
    }
    const [row] = await run(
      `select (select count(*)::int from service.attempts where webhook_id = $1 and response_erased) as erased,
              (select count(*)::int from service.deliveries where webhook_id = $1 and stop_reason = 'donor_erased') as stopped,
              (select count(*)::int from service.messages where account_id = $2 and erased_at is not null) as messages`,
      [w.webhook, w.account],
    );
    assert.deepEqual(row, { erased: 2, stopped: 1, messages: 2 }, "both messages and their attempts' answers erased, the waiting delivery stopped");
  });

  test("a page of a webhook's messages with their attempts: the attempts partitions from the page's oldest to now", async () => {
    const { listMessages } = await import('../../lib/service/messages/list-messages');
    const w = await webhookOf();
    const old = await deliveryOf(w, OLD, settled);
    await attemptOf(w, old.id, OLD, 'success');
    const m = await deliveryOf(w, 2 * HOUR, settled);
    const attempt = await attemptOf(w, m.id, 2 * HOUR - 1000, 'success');
    let page: Awaited<ReturnType<typeof listMessages>> | undefined;
    const read = async () => (page = await listMessages(w.account, w.webhook, { limit: 1, cursor: null, scope: 'x' }, { withAttempts: true }));
    // Its page's keys and rows are read as the problems view's are (partitions.test.ts); here, its attempts.
    await assertPlans('messages with attempts', read, { attempts: [new Date(m.at.getTime() - HOUR), new Date(Date.now() + HOUR)] }, 'attempts', ['attempts']);
    assert.deepEqual(
      page?.results.map((r) => r.attempts?.map((x) => x.timestamp)),
      [[attempt.toISOString()]],
      'the newest message, with its attempt',
    );
  });

  test("a webhook's message stream: each page cut by the webhook's index before it is joined, no partition made ahead planned", async () => {
    const { streamMessages, STREAM_PAGE } = await import('../../lib/service/messages/stream-messages');
    const w = await webhookOf();
    const n = 2 * STREAM_PAGE + 100;
    // n messages a second apart over the last hours, each with its delivery and an attempt.
    await run(
      `with m as (insert into service.messages (id, account_id, event_id, event_type, payload, tags, created_at)
                  select 'msg_stream' || lpad(g::text, 6, '0'), $1, 'evt_stream' || g, 'grant.succeeded', '{}', '{}', now() - interval '4 hours' + g * interval '1 second'
                  from generate_series(1, $3::int) g returning id, created_at),
            d as (insert into service.deliveries (message_id, webhook_id, account_id, event_type, created_at, status, attempt_count)
                  select id, $2, $1, 'grant.succeeded', created_at, 'delivered', 1 from m returning id, message_id, created_at)
       insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
       select 'atmpt_' || d.message_id, d.id, d.message_id, $2, $1, 'http://127.0.0.1:9/', d.created_at + interval '1 second', 'success', 200, 12, 'ok', 'scheduled' from d`,
      [w.account, w.webhook, n],
    );
    await run('analyze service.messages, service.deliveries, service.attempts');
    let lines: { id: string; attempts: unknown[] }[] = [];
    const plans = await plannedBy(async () => {
      const text = await new Response(await streamMessages(w.account, w.webhook, {})).text();
      lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    });
    assert.equal(lines.length, n, 'every message streamed');
    assert.equal(new Set(lines.map((l) => l.id)).size, n, 'each once');
    assert.ok(
      lines.every((l) => l.attempts.length === 1),
      'each with its attempt',
    );
    const pages = plans.filter((p) => p.text.includes('json_build_object'));
    assert.equal(pages.length, 3, 'a statement a page');
    // Partitions starting after now and the clocks' slack: none of their rows can be read yet.
    const ahead = (table: TTable) =>
      partitions[table].filter((p) => p.from !== null && p.from.getTime() > Date.now() + HOUR).map((p) => p.name.replace('service.', ''));
    type TRun = TPlan & { 'Actual Rows'?: number; 'Actual Loops'?: number };
    // Rows of `table` read by a plan: each delivery has one message and one attempt.
    const read = (p: TRun, table: TTable): number =>
      (p['Relation Name']?.startsWith(`${table}_p`) ? (p['Actual Rows'] ?? 0) * (p['Actual Loops'] ?? 0) : 0) +
      (p.Plans ?? []).reduce((sum, c) => sum + read(c as TRun, table), 0);
    for (const { text, params, parts } of pages) {
      const [row] = await run(`explain (analyze, format json) ${text}`, params);
      const [{ Plan }] = row['QUERY PLAN'] as { Plan: TRun }[];
      // The page's messages and attempts alone, not those of every delivery older than the cursor.
      for (const table of ['messages', 'attempts'] as const)
        assert.ok(read(Plan, table) <= STREAM_PAGE, `${table} read for a page: ${read(Plan, table)}\n${text}`);
      for (const table of TABLES)
        assert.deepEqual(
          parts[table].filter((p) => ahead(table).includes(p)),
          [],
          `${table}: partitions made ahead planned by\n${text}`,
        );
    }
  });

  test("a message's lookups with its newest attempt: the attempts partitions from its time to now", async () => {
    const { getAccountMessage } = await import('../../lib/service/messages/get-account-message');
    const { getMessage } = await import('../../lib/service/messages/get-message');
    const w = await webhookOf();
    const m = await deliveryOf(w, 2 * HOUR, settled);
    const attempt = await attemptOf(w, m.id, 2 * HOUR - 1000, 'success');
    const span = { attempts: [new Date(m.at.getTime() - HOUR), new Date(Date.now() + HOUR)] as [Date, Date] };
    for (const [name, read] of [
      ['GET /v1/messages/{msg_}', async () => (await getAccountMessage(w.account, m.id, { withAttempts: true })).deliveries[0].lastAttempt?.timestamp],
      ["a webhook's message", async () => (await getMessage(w.account, w.webhook, m.id)).lastAttempt?.timestamp],
    ] as const) {
      let newest: string | undefined;
      await assertPlans(name, async () => (newest = await read()), span, 'attempts', ['attempts']);
      assert.equal(newest, attempt.toISOString(), `${name}: its newest attempt`);
    }
  });

  test("the stats' newest success, newest attempt and failing streak: the attempts partitions since the newest success's bucket", async () => {
    const { getWebhookStats } = await import('../../lib/service/stats/get-webhook-stats');
    const w = await webhookOf();
    const old = await deliveryOf(w, OLD, settled);
    await attemptOf(w, old.id, OLD, 'success');
    const m = await deliveryOf(w, 3 * HOUR, { status: 'failed', attempt_count: 3 });
    const success = await attemptOf(w, m.id, 3 * HOUR - 1000, 'success');
    await attemptOf(w, m.id, 2 * HOUR, 'failed');
    const newest = await attemptOf(w, m.id, HOUR, 'failed');
    await getWebhookStats(w.account, w.webhook, '24h'); // the first asks whether every attempt is in the histograms; later ones know
    const bucket = new Date(Math.floor(success.getTime() / (6 * HOUR)) * 6 * HOUR);
    let stats: Awaited<ReturnType<typeof getWebhookStats>> | undefined;
    await assertPlans(
      'stats',
      async () => (stats = await getWebhookStats(w.account, w.webhook, '24h')),
      { attempts: [bucket, new Date(Date.now() + HOUR)] },
      'attempts',
    );
    assert.equal(stats?.lastSuccessAt, success.toISOString());
    assert.equal(stats?.lastAttemptAt, newest.toISOString());
    assert.equal(stats?.failureStreak, 2);
    // A webhook that never succeeded: its streak is every attempt it has, however old.
    const never = await webhookOf();
    const n = await deliveryOf(never, OLD, { status: 'failed', attempt_count: 2 });
    await attemptOf(never, n.id, OLD, 'failed');
    await attemptOf(never, n.id, HOUR, 'failed');
    const s = await getWebhookStats(never.account, never.webhook, '24h');
    assert.deepEqual([s.lastSuccessAt, s.failureStreak], [null, 2]);
  });
});
