import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TTroubled from '../../lib/console/receivers/troubled-receipts';

// Issue 50.2 on the problems view's counts, on a real database opened by the app's own code (PGlite,
// or PostgreSQL with TEST_DATABASE_URL): a copy whose signature failed after its message verified at
// the receiver is counted as a suspicious arrival (its own kind), not as "delivered, but the signature
// did not verify"; a message that never verified there still is; error answers are neither.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let troubled: typeof TTroubled;
const A = '00000000-0000-4000-8000-00000000a050';
const B = '00000000-0000-4000-8000-00000000b050';

before(async () => {
  opened = await openTestDatabase('suspicious');
  db = opened.client;
  troubled = await import('../../lib/console/receivers/troubled-receipts');
  await db.driverRows(`insert into console.receivers (id, slug, name) values ($1, 'susp-a', 'A'), ($2, 'susp-b', 'B')`, [A, B]);
  // [receiver, message, verdict, answer, minutes ago], in arrival order.
  const arrivals: [string, string, string, number, number][] = [
    [A, 'msg_forged', 'valid', 200, 30], // delivered and verified…
    [A, 'msg_forged', 'invalid signature', 200, 20], // …then a forged copy: suspicious
    [A, 'msg_forged_twice', 'valid', 200, 30],
    [A, 'msg_forged_twice', 'invalid signature', 200, 25],
    [A, 'msg_forged_twice', 'timestamp outside tolerance', 200, 15], // one message, counted once
    [A, 'msg_wrong_secret', 'invalid signature', 200, 10], // never verified here: the receiver's secret
    [A, 'msg_retry', 'valid', 500, 40], // an error answer, then verified: neither kind
    [A, 'msg_retry', 'valid', 200, 39],
    [A, 'msg_unchecked', 'valid', 200, 12],
    [A, 'msg_unchecked', 'no secret configured', 200, 11], // nothing was checked: not suspicious
    [B, 'msg_forged', 'invalid signature', 200, 5], // another receiver's arrival: its own story
  ];
  for (const [rid, mid, verdict, status, ago] of arrivals) {
    await db.driverRows(
      `insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, received_at, message_id)
       values ($1, 'POST', '/ingest/x', '[]'::jsonb, 0, $2, $3, now() - $4::int * interval '1 minute', $5)`,
      [rid, verdict, status, ago, mid],
    );
  }
});
after(async () => {
  await opened?.close();
});

test('a forged copy after a verified arrival is a suspicious arrival, never a bad-signature delivery', async () => {
  const since = new Date(Date.now() - 3_600_000);
  const until = new Date(Date.now() + 60_000);
  const badSignature = await troubled.countAnsweredWithBadSignature([A, B], since, until, 1000);
  assert.deepEqual(
    badSignature.get(A),
    { count: 1, capped: false },
    'msg_wrong_secret only: msg_forged* verified first, msg_unchecked too (its last copy is a duplicate no secret checked)',
  );
  assert.deepEqual(badSignature.get(B), { count: 1, capped: false }, 'B never verified msg_forged');
  const suspicious = await troubled.countSuspiciousArrivals([A, B], since, until, 1000);
  assert.deepEqual(suspicious.get(A), { count: 2, capped: false }, 'msg_forged and msg_forged_twice');
  assert.deepEqual(suspicious.get(B), { count: 0, capped: false });
  assert.deepEqual(await troubled.countSuspiciousArrivals([A], since, until, 1), new Map([[A, { count: 1, capped: true }]]), 'capped');
});
