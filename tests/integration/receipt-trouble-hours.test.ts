import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TFailures from '../../lib/console/health/receiver-failures';

// The health home's receiver side reads the hourly counts of troubled arrivals (migration 0029:
// console.receipt_trouble_hours, kept by triggers on console.receipts) for a window's whole hours
// and the receipts only for its first part-hour. On a real database opened by the app's own code
// (PGlite, or PostgreSQL with TEST_DATABASE_URL): whatever the window, its answer is the one the
// receipts themselves give (the statement it replaced, below), through inserts of mixed receivers
// and hours, a purge of the oldest rows, a delete inside an hour, a receiver's removal and a truncate.
// A database of the previous release opens with its receipts counted: tests/upgrade/receipt-trouble-hours.ts.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let failures: typeof TFailures;
const A = '00000000-0000-4000-8000-00000000a001';
const B = '00000000-0000-4000-8000-00000000b002';
const EMPTY = '00000000-0000-4000-8000-00000000c003';

const rows = async <T>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);

/** The receiver side as it was read before 0029: every troubled receipt of the window. */
async function fromReceipts(ids: string[], since: Date) {
  const found = await rows<{ receiver_id: string; failures: number; ua: number; last: Date }>(
    `select receiver_id, count(*)::int as failures, (count(*) filter (where response_status between 200 and 299))::int as ua, max(received_at) as last
       from console.receipts where receiver_id = any($1::uuid[]) and received_at >= $2::timestamptz
        and (verdict <> 'valid' or response_status not between 200 and 299)
      group by receiver_id`,
    [ids, since.toISOString()],
  );
  return new Map(found.map((r) => [r.receiver_id, { failures: r.failures, unverifiedAccepted: r.ua, lastFailureAt: new Date(r.last).toISOString() }]));
}

/** Windows ending now: an hour, a day, a week, and ones starting on an hour exactly and a millisecond after it. */
function windows(): Date[] {
  const now = Date.now();
  const onHour = Math.floor((now - 5 * 3_600_000) / 3_600_000) * 3_600_000;
  return [now - 3_600_000, now - 86_400_000, now - 7 * 86_400_000, onHour, onHour + 1, now - 26 * 3_600_000 - 123].map((t) => new Date(t));
}

async function assertSameAnswers(what: string) {
  for (const since of windows()) {
    const ids = [A, B, EMPTY];
    assert.deepEqual(await failures.receiverFailures(ids, since), await fromReceipts(ids, since), `${what}, since ${since.toISOString()}`);
  }
}

/**
 * Receipts every `stepMin` minutes back over `hours` hours for each receiver, in statements of
 * mixed receivers and hours: every third answered 500, every fifth 200 with a bad signature.
 */
async function arrive(hours: number, stepMin: number, offsetMin = 0) {
  await rows(
    `insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, received_at, message_id)
     select rid, 'POST', '/ingest/x', '[]'::jsonb, 0,
            case when k % 5 = 0 then 'invalid' else 'valid' end,
            case when k % 3 = 0 then 500 else 200 end,
            now() - ($3::int + k * $2::int) * interval '1 minute' - interval '17 seconds', 'msg_' || k
       from generate_series(0, $1::int * 60 / $2::int) k, unnest(array[$4::uuid, $5::uuid]) rid
      order by random()`,
    [hours, stepMin, offsetMin, A, B],
  );
}

before(async () => {
  opened = await openTestDatabase('trouble-hours');
  db = opened.client;
  failures = await import('../../lib/console/health/receiver-failures');
  await rows(`insert into console.receivers (id, slug, name) values ($1, 'th-a', 'A'), ($2, 'th-b', 'B'), ($3, 'th-empty', 'no arrivals')`, [A, B, EMPTY]);
});

after(async () => {
  await opened?.close();
});

test('inserts: the hours hold what the receipts say, for every window, the first part-hour included', async () => {
  await arrive(8 * 24, 7);
  // Later statements land in hours that already have counts: they add to them.
  await arrive(30, 11, 3);
  await rows(
    `insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status) values ($1, 'POST', '/x', '[]', 0, 'valid', 503)`,
    [A],
  );
  await assertSameAnswers('after the inserts');
  const [{ n }] = await rows<{ n: number }>(`select count(*)::int as n from console.receipt_trouble_hours where receiver_id = $1`, [EMPTY]);
  assert.equal(n, 0, 'a receiver without trouble has no hours');
});

test('a purge of the oldest rows, and a delete inside an hour: the hours they touched are counted again', async () => {
  await rows(`delete from console.receipts where received_at < now() - interval '50 hours'`);
  await assertSameAnswers('after the purge');
  const [{ n }] = await rows<{ n: number }>(`select count(*)::int as n from console.receipt_trouble_hours where hour < now() - interval '51 hours'`);
  assert.equal(n, 0, 'hours left with no troubled arrival go');
  // Half of the arrivals 3 to 5 hours ago, the newest of some hours among them.
  await rows(`delete from console.receipts where received_at between now() - interval '5 hours' and now() - interval '3 hours' and id % 2 = 0`);
  await assertSameAnswers('after a delete inside hours');
});

test("a receiver's removal takes its hours; a truncate empties them", async () => {
  await rows(`delete from console.receipts where receiver_id = $1`, [B]);
  await rows(`delete from console.receivers where id = $1`, [B]);
  assert.equal((await failures.receiverFailures([A, B], new Date(Date.now() - 86_400_000))).has(B), false);
  const [{ n }] = await rows<{ n: number }>(`select count(*)::int as n from console.receipt_trouble_hours where receiver_id = $1`, [B]);
  assert.equal(n, 0);
  await assertSameAnswers('after the removal');
  await rows(`truncate console.receipts cascade`);
  assert.deepEqual(await rows(`select * from console.receipt_trouble_hours`), []);
  assert.equal((await failures.receiverFailures([A], new Date(Date.now() - 86_400_000))).size, 0);
});
