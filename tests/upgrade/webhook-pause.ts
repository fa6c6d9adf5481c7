import assert from 'node:assert/strict';
import { parseEnv } from '../../lib/env';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0033 gives a webhook its pause (`paused`, `pausedAt`), 0034 its rate cap (`rateLimit`).
// A store of the release before (migrations up to 0032) opens with its webhooks running and
// uncapped: each reads `paused: false`, `rateLimit: null`, its failing stretch and disable time as
// before, and pauses and takes a cap like a new one. (From webhook-pause-upgrade.test.ts, which
// opened the store in its own process; here through the app's API.)

const NAME = 'old-webhooks-0032';
const ACCOUNT = '00000000-0000-4000-8000-00000000a033';
const RUNNING = `ep_${'oldrunning0032'.padEnd(27, '0')}`;
const FAILING = `ep_${'oldfailing0032'.padEnd(27, '0')}`;
// A minute before the walk, not a fixed day: the app's failing sweep runs, and a stretch past
// DELIVERY_DISABLE_AFTER_MS would be disabled before the check reads it (the old test ran no sweep).
const FAILING_SINCE = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();

export const steps: TUpgradeStep[] = [
  {
    name: 'migrations 0033-0034: a webhook of the release before reads paused: false and rateLimit: null, its failing stretch as before, and pauses and takes a cap',
    release: '0032_recover_run_client',
    accounts: [NAME],
    rows: `insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
     insert into service.webhooks (id, account_id, url, event_types, failing_since) values
       ('${RUNNING}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}', null),
       ('${FAILING}', '${ACCOUNT}', 'http://127.0.0.1:9/y', '{grant.succeeded}', '${FAILING_SINCE}');`,
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      const read = async (id: string) => {
        const res = await call(app, 'GET', `/v1/webhooks/${id}`, { token: bearer });
        assert.equal(res.status, 200, res.text);
        return res.body;
      };
      const patch = async (id: string, body: unknown) => {
        const res = await call(app, 'PATCH', `/v1/webhooks/${id}`, { token: bearer, body });
        assert.equal(res.status, 200, res.text);
        return res.body;
      };
      const running = await read(RUNNING);
      const failing = await read(FAILING);
      assert.deepEqual([running.paused, running.pausedAt, running.failingSince, running.rateLimit], [false, null, null, null]);
      assert.deepEqual([failing.paused, failing.pausedAt, failing.failingSince], [false, null, FAILING_SINCE]);
      // The app's own setting, as it parsed it from the environment it was started with.
      const disableAfter = parseEnv({ ...process.env, ...app.env }).DELIVERY_DISABLE_AFTER_MS;
      assert.equal(failing.disablesAt, new Date(Date.parse(FAILING_SINCE) + disableAfter).toISOString());
      const paused = await patch(FAILING, { paused: true });
      assert.equal(paused.paused, true);
      assert.ok(paused.pausedAt !== null && Date.parse(paused.pausedAt) > Date.parse(FAILING_SINCE));
      assert.equal(paused.disablesAt, null, 'its clock stands still while paused');
      assert.equal((await patch(RUNNING, { rateLimit: 20 })).rateLimit, 20);
    },
  },
];
