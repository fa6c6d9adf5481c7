import assert from 'node:assert/strict';
import { test } from 'node:test';
import { triedBeside, withTwoSessions } from '../helpers/two-sessions';

// Migration 0046 dropped console.receipts' foreign key to console.receivers (issue 52). With it, a receipts partition
// detached keeps a key of its own, whose action triggers sit on receivers, and its drop removes them under ACCESS
// EXCLUSIVE on receivers: every arrival (its receiver read by slug, its receipt's key checked) waited for the drop's
// commit. One session detaches a receipts partition (CONCURRENTLY, as retention does) and drops it in a transaction
// held open; a second reads pg_locks for the first's locks on receivers, then does what an arrival does (reads its
// receiver, inserts its receipt) with a lock_timeout. A store of 0045 shows the lock (the test can fail), one of 0046 none. PostgreSQL only: PGlite is one
// connection, nothing waits on it.

const postgres = Boolean(process.env.TEST_DATABASE_URL);

const R = '00000000-0000-4000-8000-00000000d046';
const LOCKS = `
  select distinct c.relname || ' ' || l.mode as lock from pg_locks l join pg_class c on c.oid = l.relation
   where l.pid = $1 and l.granted and c.oid = 'console.receivers'::regclass order by 1`;

type TSeen = { dropped: string[]; arrival: string | null };

/** The first receipts partition detached, then dropped in a transaction held open, and what a second session sees meanwhile. */
function detachAndDrop(release: string): Promise<TSeen> {
  return withTwoSessions(release, `insert into console.receivers (id, slug, name) values ('${R}', 'detach-locks', 'detach locks');`, async (a, b, pid) => {
    await a.query('alter table console.receipts detach partition console.receipts_p0 concurrently');
    await a.query('begin');
    await a.query('drop table console.receipts_p0');
    const dropped = (await b.query<{ lock: string }>(LOCKS, [pid])).rows.map((r) => r.lock);
    // An arrival's statements: its receiver read by slug, its receipt inserted.
    const arrival = await triedBeside(b, [
      `select id from console.receivers where slug = 'detach-locks'`,
      `insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status) values ('${R}', 'POST', '/ingest/detach-locks', '[]', 0, 'valid', 200)`,
    ]);
    await a.query('rollback');
    return { dropped, arrival };
  });
}

test('0045: a receipts partition dropped locks receivers against reads, and an arrival waits for it', { skip: !postgres }, async () => {
  const seen = await detachAndDrop('0045_deliveries_no_foreign_keys');
  assert.ok(seen.dropped.includes('receivers AccessExclusiveLock'), seen.dropped.join(', '));
  assert.match(String(seen.arrival), /lock timeout/);
});

test('0046: a receipts partition dropped locks nothing of receivers; an arrival passes', { skip: !postgres }, async () => {
  const seen = await detachAndDrop('0046_receipts_no_receiver_key');
  assert.deepEqual(seen, { dropped: [], arrival: null });
});
