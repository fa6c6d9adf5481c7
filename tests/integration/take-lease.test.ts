import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase } from '../helpers/in-process-db';
import type * as TDbClient from '../../lib/db/client';
import type * as TLease from '../../lib/db/take-lease';

// The lease that makes the alert evaluation single-flight across worker processes, on a real
// database opened by the app's own code (PGlite, or PostgreSQL with TEST_DATABASE_URL): one holder
// at a time, given back at once, taken over when it runs out.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: typeof TDbClient;
let lease: typeof TLease;
before(async () => {
  opened = await openTestDatabase('lease');
  db = opened.client;
  lease = await import('../../lib/db/take-lease');
});
after(async () => {
  await opened?.close();
});

test('one holder at a time; released, the next takes it; run out, anyone may', async () => {
  const conn = await db.getDb();
  const take = (owner: string, ms = 60_000) => lease.takeLease(conn, 'alert-evaluation', owner, ms);
  const [a, b] = await Promise.all([take('a'), take('b')]);
  assert.equal(Number(a) + Number(b), 1, 'exactly one of two racing processes holds it');
  const [holder, other] = a ? ['a', 'b'] : ['b', 'a'];
  assert.equal(await take(other), false);
  assert.equal(await take(holder), true, 'the holder renews it');
  await lease.releaseLease(conn, 'alert-evaluation', other);
  assert.equal(await take(other), false, 'only the holder gives it back');
  await lease.releaseLease(conn, 'alert-evaluation', holder);
  assert.equal(await take(other, 1), true, 'given back: the other takes it');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await take(holder), true, 'run out: taken over');
});
