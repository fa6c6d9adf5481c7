import assert from 'node:assert/strict';
import { call, eventually, token } from '../helpers/http';
import { startReceiver, type TReceived } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0023 (a failing webhook's warnings, tests/integration/failing-warnings.test.ts) on a
// database of the previous release (0022): a webhook failing for 95 % of the threshold, a watcher of
// its news (on a receiver of this module's), and a recover run.

const ACCOUNT = '2e0f7f3e-4a0e-4c55-9a43-1a3e4d5b6c7d';
const NAME = 'old-failing';
const FAILING = 'ep_2bOldFailingOldFailingOld00';
const receiver = await startReceiver();
const watcher = receiver.endpoint(() => ({ status: 200 }));
const bodyOf = (r: TReceived) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> };

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0023 on a database of the previous release (0022): its failing webhook gets disablesAt and its one warning (90 %); its recover run reads as kind recover',
    release: '0022_histogram_function_per_bucket',
    rows: `
      insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
      insert into service.webhooks (id, account_id, url, event_types, failing_since) values
        ('${FAILING}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}', now() - interval '4 hours' * 0.95),
        ('ep_2bOldWatcherOldWatcherOld00', '${ACCOUNT}', '${watcher.url}', '{webhook.failing}', null);
      insert into service.recover_runs (id, account_id, webhook_id, since, messages, created_at) values
        ('rcvr_2bOldRunOldRunOldRunOld0000', '${ACCOUNT}', '${FAILING}', now() - interval '2 hours', 0, now() - interval '1 hour');`,
    // Four hours, so the stretch above is at 95 % of it (the default is days): 12 minutes before the app would disable it
    // rather than warn, for the rest of the walk and the app's start (an hour gave 3 minutes, near a loaded CI's figure).
    env: { DELIVERY_DISABLE_AFTER_MS: String(4 * 3_600_000) },
    accounts: [NAME],
    check: async (app) => {
      const t = await token(app, app.clients[NAME]);
      const w = (await call(app, 'GET', `/v1/webhooks/${FAILING}`, { token: t })).body;
      assert.equal(Date.parse(w.disablesAt) - Date.parse(w.failingSince), 4 * 3_600_000);
      const [warning] = await eventually(async () => watcher.requests().length > 0 && watcher.requests(), 30000, 'the warning');
      assert.equal(bodyOf(warning).data.webhookId, FAILING);
      assert.equal(bodyOf(warning).data.thresholdPercent, 90);
      assert.equal(bodyOf(warning).data.lastError, null, 'no failed attempt kept');
      const run = await call(app, 'GET', `/v1/webhooks/${FAILING}/recover/rcvr_2bOldRunOldRunOldRunOld0000`, { token: t });
      assert.equal(run.status, 200, run.text);
      assert.equal(run.body.kind, 'recover');
    },
    close: () => receiver.close(),
  },
];
