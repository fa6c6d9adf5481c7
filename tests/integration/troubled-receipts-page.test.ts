import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { databaseAt } from '../helpers/old-database';
import type * as TDbClient from '../../lib/db/client';
import type * as TDbQuery from '../../lib/db/query';
import type * as TTroubled from '../../lib/console/receivers/troubled-receipts';

// The problems view's receiver side (troubledReceiptsPage) reads each receiver's troubled arrivals
// merged in the page's order over receipts_troubled_idx, which migration 0030 extends with the id.
// On a database of the previous release (0029) with its receipts, opened by the app's own client
// (PGlite, or PostgreSQL with TEST_DATABASE_URL), which migrates it: the index is the new one, the
// old receipts are all there, and every page — windows, sizes, receiver sets, walked to the end by
// its keyset — is the one the statement it replaced (a LATERAL per receiver, below) gives, before
// and after more arrivals.

const A = '00000000-0000-4000-8000-00000000a030';
const B = '00000000-0000-4000-8000-00000000b030';
const C = '00000000-0000-4000-8000-00000000c030';
const EMPTY = '00000000-0000-4000-8000-00000000e030';

let db: typeof TDbClient & typeof TDbQuery;
let troubled: typeof TTroubled;

/**
 * `messages` messages, each arriving 1–4 times at A, B and C (in one statement, in random order):
 * the same minute at every receiver (ties broken by id), some answered 500 or 503, some with a bad
 * signature, some ending in a verified 200 (no longer troubled), a few with no message id.
 */
function arrivals(messages: number, offsetMin: number, prefix: string): string {
  return `
insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, received_at, message_id)
select rid, 'POST', '/ingest/x', '[]'::jsonb, 0,
       case when (k + j) % 7 = 0 then 'invalid' else 'valid' end,
       case when j < k % 4 and k % 3 <> 0 then 500 when k % 5 = 0 then 503 else 200 end,
       date_trunc('minute', now()) - (${offsetMin} + k * 7) * interval '1 minute' + j * interval '13 minutes',
       case when k % 29 = 0 then null else '${prefix}' || k end
  from generate_series(0, ${messages - 1}) k, generate_series(0, k % 4) j, unnest(array['${A}'::uuid, '${B}'::uuid, '${C}'::uuid]) rid
 order by random();`;
}

/** The statement troubledReceiptsPage ran before 0030: `limit` rows of every receiver, then the newest of them. */
async function lateral(receiverIds: string[], since: Date, until: Date, from: TTroubled.TReceiptKey | null, limit: number) {
  const rows = await db.driverRows<{ id: string | number; receiver_id: string; message_id: string; received_at: string | Date }>(
    `select t.* from unnest($1::uuid[]) as rid(id)
        cross join lateral (
          select r.id, r.receiver_id, r.message_id, r.received_at from console.receipts r
          where r.receiver_id = rid.id and r.message_id is not null and (r.verdict <> 'valid' or r.response_status not between 200 and 299)
            and r.received_at >= $2::timestamptz and r.received_at < $3::timestamptz
            ${from ? 'and (r.received_at, r.id) < ($5::timestamptz, $6::bigint)' : ''}
            and not exists (select 1 from console.receipts g where g.message_id = r.message_id and g.receiver_id = r.receiver_id and g.id > r.id)
          order by r.received_at desc nulls last, r.id desc
          limit $4
        ) t
        order by t.received_at desc, t.id desc
        limit $4`,
    [receiverIds, since.toISOString(), until.toISOString(), limit, ...(from ? [from.t, Number(from.id)] : [])],
  );
  return rows.map((r) => ({ id: Number(r.id), receiverId: r.receiver_id, messageId: r.message_id, receivedAt: new Date(r.received_at) }));
}

async function assertSamePages(what: string) {
  const now = Date.now();
  const windows: [Date, Date][] = [
    [new Date(now - 7 * 86_400_000), new Date(now + 60_000)],
    [new Date(now - 86_400_000), new Date(now + 60_000)],
    [new Date(now - 30 * 3_600_000 - 123), new Date(now - 5 * 3_600_000 + 7)],
    [new Date(now - 3_600_000), new Date(now + 60_000)],
  ];
  let compared = 0;
  for (const receivers of [[A, B, C, EMPTY], [B], [C, A], [EMPTY]]) {
    for (const [since, until] of windows) {
      for (const limit of [2, 51]) {
        let from: TTroubled.TReceiptKey | null = null;
        for (let page = 0; page < 30; page++) {
          const got = await troubled.troubledReceiptsPage(receivers, since, until, from, limit);
          const want = await lateral(receivers, since, until, from, limit);
          assert.deepEqual(got, want, `${what}: receivers ${receivers.length}, ${since.toISOString()}–${until.toISOString()}, limit ${limit}, page ${page}`);
          compared += got.length;
          if (got.length < limit) break;
          const last = got[got.length - 1];
          from = { t: last.receivedAt.toISOString(), id: String(last.id) };
        }
      }
    }
  }
  assert.ok(compared > 1000, `${what}: ${compared} rows compared`);
}

before(async () => {
  const env = await databaseAt(
    '0029_receipt_trouble_hours',
    `insert into console.receivers (id, slug, name) values ('${A}', 'tp-a', 'A'), ('${B}', 'tp-b', 'B'), ('${C}', 'tp-c', 'C'), ('${EMPTY}', 'tp-empty', 'no arrivals');
     ${arrivals(300, 0, 'msg_old_')}`,
  );
  Object.assign(process.env, env);
  db = { ...(await import('../../lib/db/client')), ...(await import('../../lib/db/query')) };
  await db.getDb(); // migrates it
  troubled = await import('../../lib/console/receivers/troubled-receipts');
});

after(async () => {
  await db?.closeDb();
});

test('0030 on an old store: its receipts intact, the troubled index in page order', async () => {
  const [{ n }] = await db.driverRows<{ n: number }>(`select count(*)::int as n from console.receipts`, []);
  assert.equal(n, 3 * [...Array(300).keys()].reduce((s, k) => s + (k % 4) + 1, 0));
  const [ix] = await db.driverRows<{ indexdef: string }>(`select indexdef from pg_indexes where indexname = 'receipts_troubled_idx'`, []);
  assert.match(ix.indexdef, /\(receiver_id, received_at DESC NULLS LAST, id DESC NULLS LAST\) WHERE/);
});

test('every page is the one the LATERAL gave, on the old receipts and with new arrivals', async () => {
  await assertSamePages('old receipts');
  await db.driverRows(arrivals(200, 3, 'msg_new_'), []);
  await db.driverRows(arrivals(100, 2000, 'msg_old_'), []); // old messages again, stored after, dated earlier: newest by id
  await assertSamePages('with new arrivals');
});
