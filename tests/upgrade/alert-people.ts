import assert from 'node:assert/strict';
import { queryAppDb } from '../helpers/app';
import { call, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0026 (alerts that reach people: acknowledge, snooze, repeat; tests/integration/alert-people.test.ts)
// on a database of the previous release: its rule and firing alert are kept, and the alert can be acknowledged.

export const OLD_RULE = '55555555-5555-4555-8555-555555555555';
export const OLD_ALERT = '66666666-6666-4666-8666-666666666666';

export const steps: TUpgradeStep[] = [
  {
    name: 'a database of the previous release (0025) opens with its alert rule and firing alert, which can then be acknowledged',
    release: '0025_erasure_reasons',
    rows: `
      insert into console.alert_rules (id, environment, name, kind, target_url, secret) values ('${OLD_RULE}', 'sandbox', 'From the last release', 'webhook_disabled', 'http://127.0.0.1:9/old', 'whsec_b2xkIHNlY3JldCBvZiB0aGUgbGFzdCByZWxlYXNlIQ==');
      insert into console.alerts (id, rule_id, subject, details, fired_post_at, fired_post_status) values ('${OLD_ALERT}', '${OLD_RULE}', 'webhook:ep_old', '{"description":"old"}', '2026-01-02T03:04:05.678Z', 200);`,
    // No evaluation while the checks run: the alert stays as the release left it (its webhook does not exist, so one would clear it).
    env: { ALERT_EVAL_MS: '3600000' },
    check: async (app) => {
      const cookie = await adminCookieOnce(app);
      const rules = await call(app, 'GET', '/api/alert-rules', { headers: { cookie } });
      assert.equal(rules.status, 200, `${rules.text}\n${app.logs().slice(-3000)}`);
      // By id: other steps' rules are in the list too.
      assert.equal(rules.body.results.find((r: { id: string }) => r.id === OLD_RULE)?.targetFormat, 'standard');
      const alerts = await call(app, 'GET', '/api/alerts', { headers: { cookie } });
      const kept = alerts.body.results.find((a: { id: string }) => a.id === OLD_ALERT);
      assert.ok(kept, 'the firing alert is kept');
      assert.equal(kept.firedPost.status, 200);
      assert.deepEqual([kept.acknowledgedBy, kept.snoozedUntil, kept.repeats], [null, null, 0]);
      const [row] = await queryAppDb<{ notified: string }>(app, `select notified_at::text as notified from console.alerts where id = $1`, [OLD_ALERT]);
      assert.match(row.notified, /^2026-01-02 03:04:05\.678/, 'a reminder counts from the notice it already had');
      const ack = await call(app, 'POST', `/api/alerts/${OLD_ALERT}/acknowledge`, { headers: { cookie }, body: { note: 'after the upgrade' } });
      assert.equal(ack.status, 200, ack.text);
      assert.equal(ack.body.acknowledgedBy, 'admin@example.org');
    },
  },
];
