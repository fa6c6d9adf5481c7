import assert from 'node:assert/strict';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0025 (why an answer was emptied or retries stopped, tests/integration/erasure-truth.test.ts)
// on a database of the previous release: what its erasures did is told as now.

const NAME = 'upgrade-erasure';
const ACCOUNT = '38383838-3838-4838-8838-383838383838';
const WEBHOOK = `ep_${'truth'.padEnd(26, '0')}1`;
const erasedAt = "now() - interval '2 hours'";
const [E, R] = ['truthErased', 'truthRetention'].map((s) => s.padEnd(27, '0'));
const message = (id: string, status: string, erased: boolean, purgedAt: string) => `
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at, erased_at, payload_purged_at) values
    ('${id}', '${ACCOUNT}', 'evt_${id.slice(4)}', 'grant.succeeded', '{"erased":{"at":"x","sha256":"ab"}}', now() - interval '3 hours',
     ${erased ? erasedAt : 'null'}, ${purgedAt});
  insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, created_at, updated_at) values
    ('${id}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', '${status}', 2, 2, now() - interval '3 hours', ${erasedAt});
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response,
                                response_purged_at, response_size, response_sha256, trigger_type)
    select 'atmpt_${id.slice(4)}', d.id, '${id}', '${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', now() - interval '3 hours', 'failed', 500, 5, '',
           ${purgedAt}, 12, 'ab', 'scheduled'
      from service.deliveries d where d.message_id = '${id}';`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0025 on a database of the previous release: what its erasures did is told as now — the answers they emptied, the retries they stopped; retention’s purges stay retention’s',
    release: '0024_staff_password_change',
    rows: `insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
         insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
         ${message(`msg_${E}`, 'failed', true, erasedAt)}
         ${message(`msg_${R}`, 'failed', false, "now() - interval '1 day'")}`,
    accounts: [NAME],
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      const get = (id: string) => call(app, 'GET', `/v1/messages/${id}?withAttempts=true`, { token: bearer });
      const first = await get(`msg_${E}`);
      assert.equal(first.status, 200, `${first.text}\n${app.logs().slice(-3000)}`);
      const erased = first.body.deliveries[0];
      assert.equal(erased.retriesStopped?.reason, 'donor_erased');
      assert.equal(erased.lastAttempt.responsePurged.reason, 'erasure');
      const kept = (await get(`msg_${R}`)).body.deliveries[0];
      assert.equal(kept.retriesStopped, null, 'a failed delivery nobody erased is as it was');
      assert.equal(kept.lastAttempt.responsePurged.reason, 'retention');
    },
  },
];
