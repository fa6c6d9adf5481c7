import assert from 'node:assert/strict';
import { test } from 'node:test';
import { triedBeside, withTwoSessions } from '../helpers/two-sessions';

// Migration 0045 dropped service.deliveries' foreign keys to messages and webhooks (issue 52). With them, retention's
// detach of a deliveries partition locked webhooks and every messages partition against writes (SHARE ROW EXCLUSIVE:
// a grant's insert waited) and its drop locked them against reads (ACCESS EXCLUSIVE). One session detaches and drops a
// deliveries partition in a transaction held open; a second reads pg_locks for the first's locks on those tables, and
// writes a message and a webhook's row (or reads them, after the drop) with a lock_timeout. A store of 0044 shows the locks
// (the test can fail), one of 0045 none. PostgreSQL only: PGlite is one connection, nothing waits on it.

const postgres = Boolean(process.env.TEST_DATABASE_URL);

const ACCOUNT = '00000000-0000-4000-8000-00000000d045';
/** The tables ingest uses that the first session holds a lock on, with the modes, as `table mode`. */
const LOCKS = `
  select distinct c.relname || ' ' || l.mode as lock from pg_locks l join pg_class c on c.oid = l.relation
   where l.pid = $1 and l.granted and (c.oid = 'service.webhooks'::regclass or c.oid = 'service.messages'::regclass
      or c.oid in (select inhrelid from pg_inherits where inhparent = 'service.messages'::regclass))
   order by 1`;

type TSeen = { detach: string[]; dropped: string[]; write: string | null; read: string | null };

/** A deliveries partition detached then dropped in a transaction held open, and what a second session sees meanwhile. */
function detachAndDrop(release: string): Promise<TSeen> {
  return withTwoSessions(release, `insert into service.accounts (id, name) values ('${ACCOUNT}', 'detach-locks');`, async (a, b, pid) => {
    // The partition after the first (the migration's first after its cutover, empty), as retention would drop an old one.
    const [{ part }] = (
      await a.query<{ part: string }>(
        `select c.relname as part from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'service.deliveries'::regclass and c.relname <> 'deliveries_p0' order by 1 limit 1`,
      )
    ).rows;
    const locks = async () => (await b.query<{ lock: string }>(LOCKS, [pid])).rows.map((r) => r.lock);
    // Statements of the second session that need what the keys locked.
    const write = [
      `insert into service.messages (id, account_id, event_id, event_type, payload) values
        ('msg_detach_locks', '${ACCOUNT}', 'evt_detach_locks', 'grant.succeeded', '{}')`,
      `update service.webhooks set updated_at = now() where account_id = '${ACCOUNT}'`,
    ];
    await a.query('begin');
    await a.query(`alter table service.deliveries detach partition service.${part}`);
    const detach = await locks();
    const wrote = await triedBeside(b, write);
    await a.query(`drop table service.${part}`);
    const dropped = await locks();
    const read = await triedBeside(b, ['select count(*) from service.messages', 'select count(*) from service.webhooks']);
    await a.query('rollback');
    return { detach, dropped, write: wrote, read };
  });
}

test(
  '0044: a deliveries partition detached locks webhooks and every messages partition against writes, dropped against reads',
  { skip: !postgres },
  async () => {
    const seen = await detachAndDrop('0044_delivery_queue_by_key');
    assert.ok(seen.detach.includes('webhooks ShareRowExclusiveLock'), seen.detach.join(', '));
    assert.ok(
      seen.detach.some((l) => /^messages_p\S+ ShareRowExclusiveLock$/.test(l)),
      seen.detach.join(', '),
    );
    assert.match(String(seen.write), /lock timeout/);
    assert.ok(seen.dropped.includes('webhooks AccessExclusiveLock'), seen.dropped.join(', '));
    assert.match(String(seen.read), /lock timeout/);
  },
);

test('0045: a deliveries partition detached and dropped locks neither webhooks nor messages; writes and reads pass', { skip: !postgres }, async () => {
  const seen = await detachAndDrop('0045_deliveries_no_foreign_keys');
  assert.deepEqual(seen, { detach: [], dropped: [], write: null, read: null });
});
