import assert from 'node:assert/strict';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0009 (the stats' indexes, tests/integration/health.test.ts) on a database made before it:
// four attempts of two messages in the last half hour (success, fail, fail, success … then two fails),
// rows written by the previous release, read by the new stats through the new indexes.

const ACCOUNT = '22222222-2222-4222-8222-222222222222';
const NAME = 'upgrade-health';

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0009 on a database made before it: opens with its attempts intact, and the stats count them',
    release: '0008_grant_sessions_nonprofit_profile',
    rows: `
    insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
    insert into service.webhooks (id, account_id, url, event_types, failing_since)
      values ('ep_old000000000000000000000001', '${ACCOUNT}', 'http://127.0.0.1:9/old', '{grant.succeeded}', now() - interval '10 minutes');
    insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
      ('msg_old000000000000000000000001', '${ACCOUNT}', 'evt_old000000000000000000000001', 'grant.succeeded', '{}', now() - interval '30 minutes'),
      ('msg_old000000000000000000000002', '${ACCOUNT}', 'evt_old000000000000000000000002', 'grant.succeeded', '{}', now() - interval '20 minutes');
    insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at) values
      ('33333333-3333-4333-8333-333333333331', 'msg_old000000000000000000000001', 'ep_old000000000000000000000001', '${ACCOUNT}', 'grant.succeeded', 'success', 1, 1, null, now() - interval '30 minutes'),
      ('33333333-3333-4333-8333-333333333332', 'msg_old000000000000000000000002', 'ep_old000000000000000000000001', '${ACCOUNT}', 'grant.succeeded', 'pending', 3, 3, now() + interval '2 hours', now() - interval '20 minutes');
    insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type) values
      ('atmpt_old000000000000000000000001', '33333333-3333-4333-8333-333333333331', 'msg_old000000000000000000000001', 'ep_old000000000000000000000001', '${ACCOUNT}', 'http://127.0.0.1:9/old', now() - interval '30 minutes', 'success', 200, 100, 'scheduled'),
      ('atmpt_old000000000000000000000002', '33333333-3333-4333-8333-333333333332', 'msg_old000000000000000000000002', 'ep_old000000000000000000000001', '${ACCOUNT}', 'http://127.0.0.1:9/old', now() - interval '20 minutes', 'failed', 500, 200, 'scheduled'),
      ('atmpt_old000000000000000000000003', '33333333-3333-4333-8333-333333333332', 'msg_old000000000000000000000002', 'ep_old000000000000000000000001', '${ACCOUNT}', 'http://127.0.0.1:9/old', now() - interval '15 minutes', 'failed', 0, 15000, 'scheduled'),
      ('atmpt_old000000000000000000000004', '33333333-3333-4333-8333-333333333332', 'msg_old000000000000000000000002', 'ep_old000000000000000000000001', '${ACCOUNT}', 'http://127.0.0.1:9/old', now() - interval '10 minutes', 'failed', 503, 300, 'scheduled');
`,
    accounts: [NAME],
    check: async (app) => {
      const t = await token(app, app.clients[NAME]);
      const res = await call(app, 'GET', '/v1/webhooks/ep_old000000000000000000000001/stats?window=1h', { token: t });
      assert.equal(res.status, 200, res.text);
      const s = res.body;
      assert.deepEqual([s.attempts, s.successes, s.failures, s.successRate, s.failureStreak], [4, 1, 3, 0.25, 3]);
      // nearest rank of 100, 200, 300, 15000 ms (200, 15000, 15000), each read at the geometric middle of its 25 % latency bucket
      assert.deepEqual(s.responseTimeMs, { p50: 189.4, p95: 16428, p99: 16428 });
      assert.equal(s.backlog.pending, 1);
      // 20 minutes when the walked database was seeded, and as much older as the walk has taken since (minutes at CI's load):
      // the pending message's own age now, from its timestamp.
      const msg = await call(app, 'GET', '/v1/messages/msg_old000000000000000000000002', { token: t });
      assert.equal(msg.status, 200, msg.text);
      const age = (Date.now() - Date.parse(msg.body.timestamp)) / 1000;
      assert.ok(age >= 1200 && Math.abs(s.backlog.oldestPendingAgeSeconds - age) < 60, `${s.backlog.oldestPendingAgeSeconds} s, its message ${age} s old`);
      assert.ok(Date.parse(s.lastAttemptAt) - Date.parse(s.lastSuccessAt) === 20 * 60_000);
      assert.equal(
        s.buckets.reduce((n: number, b: { attempts: number }) => n + b.attempts, 0),
        4,
      );
    },
  },
];
