import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { databaseAt } from '../helpers/old-database';
import type * as TDbClient from '../../lib/db/client';
import type * as TDbQuery from '../../lib/db/query';

// Migration 0032 gives a recover or replay run the API client that started it (`clientId`). A store of
// the release before (migrations up to 0031) opens with its runs intact: each reads as before, its
// client unknown (null), and a new run records its client beside them. Opened by the app's own client
// in this process (no app: what is checked is the migration), on PostgreSQL with TEST_DATABASE_URL.

const ACCOUNT = '00000000-0000-4000-8000-00000000a032';
let db: typeof TDbClient & typeof TDbQuery;
before(async () => {
  const env = await databaseAt(
    '0031_sso_subject',
    `insert into service.accounts (id, name) values ('${ACCOUNT}', 'old-runs');
     insert into service.webhooks (id, account_id, url, event_types) values ('ep_old_runs', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
     insert into service.recover_runs (id, account_id, webhook_id, since, until, messages, kind, created_at) values
       ('rcvr_old_recover', '${ACCOUNT}', 'ep_old_runs', '2026-11-20T05:10:00Z', '2026-11-20T09:42:00Z', 12, 'recover', '2026-11-20T09:44:00Z'),
       ('rcvr_old_replay', '${ACCOUNT}', 'ep_old_runs', '2026-11-21T00:00:00Z', null, 3, 'replay-missing', '2026-11-21T01:00:00Z');`,
  );
  Object.assign(process.env, env);
  db = { ...(await import('../../lib/db/client')), ...(await import('../../lib/db/query')) };
  await db.getDb(); // migrates it
});
after(async () => {
  await db?.closeDb();
});

test('a store of the previous release opens with its recover and replay runs intact, their client unknown; a new run keeps its client', async () => {
  const { recoverRunJson } = await import('../../lib/service/recover/recover-run-json');
  const { recoverRuns } = await import('../../lib/db/schema/service-webhooks');
  const handle = await db.getDb();
  const rows = await handle.select().from(recoverRuns).orderBy(recoverRuns.id);
  const runs = await Promise.all(rows.map((row) => recoverRunJson(handle, row)));
  assert.deepEqual(
    runs.map((r) => [r.id, r.kind, r.messages, r.since, r.until, r.clientId]),
    [
      ['rcvr_old_recover', 'recover', 12, '2026-11-20T05:10:00.000Z', '2026-11-20T09:42:00.000Z', null],
      ['rcvr_old_replay', 'replay-missing', 3, '2026-11-21T00:00:00.000Z', '2026-11-21T01:00:00.000Z', null],
    ],
  );
  await handle.insert(recoverRuns).values({
    id: 'rcvr_new_run',
    accountId: ACCOUNT,
    webhookId: 'ep_old_runs',
    since: new Date('2026-11-22T00:00:00Z'),
    messages: 0,
    kind: 'replay-missing',
    clientId: 'cli_support_tool',
  });
  const [fresh] = await handle
    .select()
    .from(recoverRuns)
    .where((await import('drizzle-orm')).eq(recoverRuns.id, 'rcvr_new_run'));
  assert.equal((await recoverRunJson(handle, fresh)).clientId, 'cli_support_tool');
});
