import assert from 'node:assert/strict';
import { call, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0010 (the audit log) on a database of the previous release: it opens with its rows, and
// the audit log starts empty (operations.test.ts tests the audit log itself).

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0010 on a database of the previous release (0009): opens with its rows intact and an empty audit log',
    release: '0009_attempt_stats_indexes',
    rows: `
      insert into console.receivers (id, slug, name) values ('9b2f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'old-receiver', 'Old receiver');
      insert into service.accounts (id, name) values ('1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'old-account');
      insert into service.webhooks (id, account_id, url, event_types) values ('ep_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'http://127.0.0.1:9/x', '{grant.succeeded}');
      insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ('msg_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'evt_2bOldOldOldOldOldOldOldOld00', 'grant.succeeded', '{}', now() - interval '1 hour');
      insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at) values ('msg_2bOldOldOldOldOldOldOldOld00', 'ep_2bOldOldOldOldOldOldOldOld00', '1e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d', 'grant.succeeded', 'failed', 8, now() - interval '1 hour');`,
    check: async (app) => {
      const c = await adminCookieOnce(app);
      const receivers = await call(app, 'GET', '/api/receivers', { headers: { cookie: c } });
      assert.ok(receivers.body.results.some((r: { slug: string }) => r.slug === 'old-receiver'));
      // The other steps' checks sign in and act on this app too, so the log is not just this login: it
      // holds nothing dated before the app first answered (made by the migrations or the start).
      const audit = await call(app, 'GET', `/api/audit?until=${app.readyAt}`, { headers: { cookie: c } });
      assert.equal(audit.status, 200, audit.text);
      assert.deepEqual(audit.body.results, []);
      const mine = await call(app, 'GET', `/api/audit?action=login&since=${app.readyAt}`, { headers: { cookie: c } });
      assert.ok(mine.body.results.length > 0, 'this sign-in is logged');
    },
  },
];
