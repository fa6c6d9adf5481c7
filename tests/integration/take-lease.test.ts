// Own app: two old databases (0026) purged with retention of seconds, read behind their backs; not steps of the walked upgrade app (tests/upgrade/): 5 s of retention would purge the other steps' bodies, and the two seed the same console lease, held and not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queryAppDb, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, token } from '../helpers/http';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import { databaseAt } from '../helpers/old-database';
import type * as TLease from '../../lib/db/take-lease';

// The lease that makes the alert evaluation single-flight across worker processes, on a real
// database opened by the app's own code (PGlite, or PostgreSQL with TEST_DATABASE_URL): one holder
// at a time, given back at once, taken over when it runs out.

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
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
  const ALERTS = { table: 'console.leases', name: 'alert-evaluation' } as const;
  const take = (owner: string, ms = 60_000) => lease.takeLease(conn, ALERTS, owner, ms);
  const [a, b] = await Promise.all([take('a'), take('b')]);
  assert.equal(Number(a) + Number(b), 1, 'exactly one of two racing processes holds it');
  const [holder, other] = a ? ['a', 'b'] : ['b', 'a'];
  assert.equal(await take(other), false);
  assert.equal(await take(holder), true, 'the holder renews it');
  await lease.releaseLease(conn, ALERTS, other);
  assert.equal(await take(other), false, 'only the holder gives it back');
  await lease.releaseLease(conn, ALERTS, holder);
  assert.equal(await take(other, 1), true, 'given back: the other takes it');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await take(holder), true, 'run out: taken over');
});

// Migration 0027 on a database of the previous release, whose service purge took its lease in
// console.leases: the new release opens it, the lease (held or not) is in service.leases from then
// on, the console's table keeps only the console's, and the service's purge still purges. On
// PostgreSQL (TEST_DATABASE_URL), a lease a process of the previous release held is honoured until
// it runs out; the embedded store is one process's, and its purge takes no lease.
describe('migration 0027 on a database of the previous release: the service purge leases in its own schema', () => {
  const ACCOUNT = '27272727-2727-4727-8727-272727272727';
  const WEBHOOK = `ep_${'lease'.padEnd(26, '0')}1`;
  const MSG = `msg_${'leaseupgrade'.padEnd(27, '0')}`;
  const seed = (held: boolean) => `
    insert into service.accounts (id, name) values ('${ACCOUNT}', 'sandbox');
    insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
    insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
      ('${MSG}', '${ACCOUNT}', 'evt_${MSG.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"email":"donor@example.org"}}', now() - interval '2 hours');
    insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at) values
      ('${MSG}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, now() - interval '2 hours');
    insert into console.leases (name, owner, until) values ('alert-evaluation', 'alert-evaluation-old', now() + interval '1 hour');
    ${held ? "insert into console.leases (name, owner, until) values ('retention-service', 'retention-service-old', now() + interval '1 hour');" : ''}`;
  const RETENTION = { MESSAGE_PAYLOAD_RETENTION: '5s', RECEIPT_BODY_RETENTION: '5s' };
  const purged = async (app: TApp, bearer: string) => {
    const res = await call(app, 'GET', `/v1/messages/${MSG}`, { token: bearer });
    assert.equal(res.status, 200, res.text);
    return res.body.payload?.purged ? res.body.payload : null;
  };
  // The leases of the previous release's names (a tick of the console's own purge may hold its lease at the time).
  const leases = async (app: TApp) =>
    queryAppDb<{ at: string; name: string; owner: string }>(
      app,
      `select * from (select 'service' as at, name, owner from service.leases union all select 'console', name, owner from console.leases) l
        where name in ('alert-evaluation', 'retention-service') order by 1, 2`,
    );
  const CONSOLE_KEEPS_ITS_OWN = [{ at: 'console', name: 'alert-evaluation', owner: 'alert-evaluation-old' }];

  test('no lease held: it opens, and the purge purges and leases in service.leases', async () => {
    const app = await startApp({ env: { ...(await databaseAt('0026_alert_ack_snooze_targets', seed(false))), ...RETENTION } });
    try {
      const bearer = await token(app);
      await eventually(() => purged(app, bearer), 30_000, 'the payload purged');
      const rows = await leases(app);
      assert.deepEqual(
        rows.filter((r) => r.at === 'console'),
        CONSOLE_KEEPS_ITS_OWN,
        'the console keeps its own lease, and no longer the service purge',
      );
      assert.ok(rows.filter((r) => r.at === 'service').every((r) => r.name === 'retention-service' && r.owner !== 'retention-service-old'));
    } finally {
      await app.destroy();
    }
  });

  test('a lease held at the upgrade moves to service.leases, is honoured until it runs out, and the purge then purges', async () => {
    const app = await startApp({ env: { ...(await databaseAt('0026_alert_ack_snooze_targets', seed(true))), ...RETENTION } });
    try {
      const bearer = await token(app);
      if (app.env.DATABASE_URL) {
        assert.deepEqual(await leases(app), [...CONSOLE_KEEPS_ITS_OWN, { at: 'service', name: 'retention-service', owner: 'retention-service-old' }]);
        // Both purges start together: once the console's has finished a pass, the service's has had its
        // turns too, and skipped them while the previous release's process holds the lease.
        await eventually(
          async () => (await queryAppDb(app, `select 1 from console.retention_progress where what = 'pass' and pass_ended_at is not null`)).length > 0,
          30_000,
          "the console purge's first pass",
        );
        await sleep(2000); // two of the service purge's turns (its interval is a second with these settings)
        assert.equal(await purged(app, bearer), null, 'not purged while the previous release holds the lease');
        await queryAppDb(app, `update service.leases set until = now() - interval '1 second' where name = 'retention-service'`);
      }
      const payload = await eventually(() => purged(app, bearer), 30_000, 'the payload purged once the lease is free');
      assert.equal(payload.purged.retention, '5s');
      const rows = await leases(app);
      assert.deepEqual(
        rows.filter((r) => r.at === 'console'),
        CONSOLE_KEEPS_ITS_OWN,
      );
      if (app.env.DATABASE_URL) {
        assert.ok(
          rows.every((r) => r.owner !== 'retention-service-old'),
          'run out, the lease was taken over',
        );
      } else {
        assert.deepEqual(
          rows.filter((r) => r.at === 'service'),
          [{ at: 'service', name: 'retention-service', owner: 'retention-service-old' }],
          'moved with the data',
        );
      }
    } finally {
      await app.destroy();
    }
  });
});
