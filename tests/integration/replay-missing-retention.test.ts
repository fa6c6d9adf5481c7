import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { disposeNow } from '../helpers/app';
import { databaseAt } from '../helpers/old-database';
import { queueMissing } from '../../lib/service/recover/replay-missing';

// Since migration 0045 no foreign key holds a delivery to its message: replay-missing, the one writer of deliveries for
// messages already stored, locks each message it reads FOR KEY SHARE, as the key's check did. Against retention's messages
// step (its rows FOR UPDATE SKIP LOCKED, then deleted with their deliveries): a message retention deleted first is not
// queued once that commits (without the lock the replay read it in its snapshot and queued a delivery of a message gone),
// and one a replay queued is passed by until the replay commits. PostgreSQL only (two sessions; PGlite has one).

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const stores: Record<string, string>[] = [];
after(async () => {
  for (const store of stores) await disposeNow(store);
});

const ACCOUNT = '00000000-0000-4000-8000-00000000e045';
const WEBHOOK = `ep_${'replayretention'.padEnd(27, '0')}`;
const MESSAGE = `msg_${'replayretention'.padEnd(27, '0')}`;
const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', 'replay-retention');
  insert into service.webhooks (id, account_id, url, event_types, created_at) values
    ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/hook', '{grant.succeeded}', now() - interval '2 hours');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ('${MESSAGE}', '${ACCOUNT}', 'evt_replayretention', 'grant.succeeded', '{}', now() - interval '1 hour');`;

/** Two sessions on a store of the latest release with one message the webhook never got. */
async function sessions() {
  const journal = (await import('../../lib/db/migrations/meta/_journal.json', { with: { type: 'json' } })).default as { entries: { tag: string }[] };
  const store = await databaseAt(journal.entries[journal.entries.length - 1].tag, rows);
  stores.push(store);
  const [retention, replay] = [new pg.Client({ connectionString: store.DATABASE_URL }), new pg.Client({ connectionString: store.DATABASE_URL })];
  await retention.connect();
  await replay.connect();
  const now = Date.now();
  const q = new PgDialect().sqlToQuery(
    queueMissing(ACCOUNT, WEBHOOK, 'rcvr_test', { since: new Date(now - 3 * 3_600_000), until: null }, new Date(now + 60_000)),
  );
  const queue = () => replay.query(q.sql, q.params as unknown[]);
  const deliveries = async () => (await retention.query(`select message_id from service.deliveries where account_id = $1`, [ACCOUNT])).rows;
  const close = async () => {
    await retention.end();
    await replay.end();
  };
  return { retention, replay, queue, deliveries, close };
}

test('a message retention deleted while a replay read it is not queued: no delivery outlives its message', { skip: !postgres }, async () => {
  const s = await sessions();
  try {
    await s.retention.query('begin');
    const locked = await s.retention.query(`select id from service.messages where id = $1 for update skip locked`, [MESSAGE]);
    assert.equal(locked.rowCount, 1);
    await s.retention.query(`delete from service.messages where id = $1`, [MESSAGE]);
    await s.replay.query('begin');
    const [{ pid }] = (await s.replay.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    let done = false;
    const queued = s.queue().finally(() => (done = true));
    // The replay waits for the message's lock (pg_locks is read live; with no lock it would not wait, and would queue it).
    const waits = `select exists (select 1 from pg_locks where pid = $1 and not granted) as waits`;
    while (!done && !(await s.retention.query(waits, [pid])).rows[0].waits) await new Promise((resolve) => setTimeout(resolve, 20));
    await s.retention.query('commit');
    assert.equal((await queued).rowCount, 0, 'nothing queued');
    await s.replay.query('commit');
    assert.deepEqual(await s.deliveries(), []);
  } finally {
    await s.close();
  }
});

test('a message a replay queued is passed by retention until the replay commits, then kept for its pending delivery', { skip: !postgres }, async () => {
  const s = await sessions();
  try {
    await s.replay.query('begin');
    assert.equal((await s.queue()).rowCount, 1);
    const locked = await s.retention.query(`select id from service.messages where id = $1 for update skip locked`, [MESSAGE]);
    assert.equal(locked.rowCount, 0, 'retention skips the message the replay holds');
    await s.replay.query('commit');
    assert.deepEqual(await s.deliveries(), [{ message_id: MESSAGE }]);
  } finally {
    await s.close();
  }
});
