import assert from 'node:assert/strict';
import { call, adminCookieOnce, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';
import { OLD_ALERT, OLD_RULE } from './alert-people';

// Migration 0007 (alert rules, tests/integration/alerts.test.ts) on a database of the previous
// release (0006): it opens with its receipts and nonprofits, and takes alert rules.

const RECEIVER = '44444444-4444-4444-8444-444444444444';

export const steps: TUpgradeStep[] = [
  {
    name: 'a database of the previous release (0006) opens with its data intact, and takes alert rules',
    release: '0006_receipt_duplicate_when_read',
    rows: `
      insert into console.receivers (id, slug, name, secrets) values ('${RECEIVER}', 'from-the-last-release', 'From the last release', '{}');
      insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, message_id)
        values ('${RECEIVER}', 'POST', '/ingest/from-the-last-release', '[]', 0, 'missing headers', 200, 'msg_old');
      insert into service.nonprofits (ein, name, contact) values ('530196605', 'Kept Food Bank', '{}');`,
    check: async (app) => {
      const cookie = await adminCookieOnce(app);
      const as = (method: string, p: string, body?: unknown) => call(app, method, p, { headers: { cookie }, body });
      const receipts = await as('GET', `/api/receivers/${RECEIVER}/receipts`);
      assert.equal(receipts.status, 200, receipts.text);
      assert.deepEqual(
        receipts.body.results.map((r: { messageId: string }) => r.messageId),
        ['msg_old'],
      );
      const np = await call(app, 'GET', '/v1/nonprofit/530196605', { token: await token(app) });
      assert.equal(np.body.name, 'Kept Food Bank');
      // The walked database holds alert-people's rule and firing alert (tests/upgrade/alert-people.ts):
      // apart from them, no rule and no alert.
      const alerts = await as('GET', '/api/alerts');
      assert.equal(alerts.status, 200, alerts.text);
      assert.deepEqual(
        alerts.body.results.filter((a: { id: string }) => a.id !== OLD_ALERT),
        [],
      );
      const created = await as('POST', '/api/alert-rules', {
        name: 'after the upgrade',
        kind: 'webhook_disabled',
        targetUrl: `${app.baseUrl}/ingest/from-the-last-release`,
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(
        (await as('GET', '/api/alert-rules')).body.results.filter((r: { id: string }) => r.id !== OLD_RULE).map((r: { id: string }) => r.id),
        [created.body.rule.id],
      );
    },
  },
];
