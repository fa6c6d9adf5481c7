// Own app: an app on a database of an earlier release (upgrade).
// @ci-one-store: CI runs this file in the embedded-store pass only (migration 0010 applies on PostgreSQL in every run, when the PostgreSQL pass makes its template database).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { databaseAt } from '../helpers/old-database';

// Migration 0010 (the audit log) on a database of the previous release: it opens with its rows, and
// the audit log starts empty (operations.test.ts tests the audit log itself).

type TStarted = Awaited<ReturnType<typeof startApp>>;

describe('migration 0010 on a database of the previous release', () => {
  let old: TStarted;
  before(async () => {
    const rows = `
      insert into console.receivers (id, slug, name) values ('9b2f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'old-receiver', 'Old receiver');
      insert into service.accounts (id, name) values ('1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'old-account');
      insert into service.webhooks (id, account_id, url, event_types) values ('ep_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'http://127.0.0.1:9/x', '{grant.succeeded}');
      insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ('msg_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'evt_2bOldOldOldOldOldOldOldOld00', 'grant.succeeded', '{}', now() - interval '1 hour');
      insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at) values ('msg_2bOldOldOldOldOldOldOldOld00', 'ep_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'grant.succeeded', 'failed', 8, now() - interval '1 hour');`;
    old = await startApp({ env: await databaseAt('0009_attempt_stats_indexes', rows) });
  });
  after(() => old?.stop());

  test('opens with its rows intact and an empty audit log', async () => {
    const c = await staffCookie(old);
    const receivers = await call(old, 'GET', '/api/receivers', { headers: { cookie: c } });
    assert.ok(receivers.body.results.some((r: { slug: string }) => r.slug === 'old-receiver'));
    const audit = await call(old, 'GET', '/api/audit', { headers: { cookie: c } });
    assert.deepEqual(
      audit.body.results.map((r: { action: string }) => r.action),
      ['login'],
    );
  });
});
