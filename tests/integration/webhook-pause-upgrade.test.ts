import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { databaseAt } from '../helpers/old-database';
import type * as TDbClient from '../../lib/db/client';

// Migration 0033 gives a webhook its pause (`paused`, `pausedAt`), 0034 its rate cap (`rateLimit`). A
// store of the release before (migrations up to 0032) opens with its webhooks running and uncapped:
// each reads `paused: false`, `rateLimit: null`, its failing stretch and disable time as before, and
// pauses and takes a cap like a new one. Opened by the app's own client in
// this process (no app: what is checked is the migration), on PostgreSQL with TEST_DATABASE_URL.

const ACCOUNT = '00000000-0000-4000-8000-00000000a033';
let db: typeof TDbClient;
before(async () => {
  const env = await databaseAt(
    '0032_recover_run_client',
    `insert into service.accounts (id, name) values ('${ACCOUNT}', 'old-webhooks');
     insert into service.webhooks (id, account_id, url, event_types, failing_since) values
       ('ep_old_running', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}', null),
       ('ep_old_failing', '${ACCOUNT}', 'http://127.0.0.1:9/y', '{grant.succeeded}', '2026-11-28T10:00:00Z');`,
  );
  Object.assign(process.env, env);
  db = await import('../../lib/db/client');
  await db.getDb(); // migrates it
});
after(async () => {
  await db?.closeDb();
});

test('a webhook of the previous release reads paused: false, its failing stretch as before, and pauses', async () => {
  const { getWebhook } = await import('../../lib/service/webhooks/get-webhook');
  const { updateWebhook } = await import('../../lib/service/webhooks/update-webhook');
  const { webhookToJson } = await import('../../lib/service/webhooks/webhook-json');
  const { env } = await import('../../lib/env');
  const running = webhookToJson(await getWebhook(ACCOUNT, 'ep_old_running'));
  const failing = webhookToJson(await getWebhook(ACCOUNT, 'ep_old_failing'));
  assert.deepEqual([running.paused, running.pausedAt, running.failingSince, running.rateLimit], [false, null, null, null]);
  assert.deepEqual([failing.paused, failing.pausedAt, failing.failingSince], [false, null, '2026-11-28T10:00:00.000Z']);
  assert.equal(failing.disablesAt, new Date(Date.parse('2026-11-28T10:00:00Z') + env.DELIVERY_DISABLE_AFTER_MS).toISOString());
  const paused = webhookToJson(await updateWebhook(ACCOUNT, 'ep_old_failing', { paused: true }));
  assert.equal(paused.paused, true);
  assert.ok(paused.pausedAt !== null && Date.parse(paused.pausedAt) > Date.parse('2026-11-28T10:00:00Z'));
  assert.equal(paused.disablesAt, null, 'its clock stands still while paused');
  assert.equal(webhookToJson(await updateWebhook(ACCOUNT, 'ep_old_running', { rateLimit: 20 })).rateLimit, 20);
});
