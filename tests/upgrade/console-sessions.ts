import assert from 'node:assert/strict';
import { ADMIN } from '../helpers/app';
import { call } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Staff sessions (tests/integration/console-sessions.test.ts) on a database made before server-side
// sessions: it opens with its data, and sign-in and sign-out work.

const RECEIVER = '33333333-3333-4333-8333-333333333333';

export const steps: TUpgradeStep[] = [
  {
    name: 'a database made before server-side sessions (migration 0001) opens with its data, and sign-in works',
    release: '0001_investigation',
    rows: `insert into console.receivers (id, slug, name, secrets) values ('${RECEIVER}', 'kept-from-before', 'Kept from before', '{}');`,
    check: async (app) => {
      const login = await call(app, 'POST', '/api/session', { body: ADMIN });
      assert.equal(login.status, 200, login.text);
      const cookie = login.headers.getSetCookie()[0].split(';')[0];
      const receivers = await call(app, 'GET', '/api/receivers', { headers: { cookie } });
      assert.equal(receivers.status, 200, receivers.text);
      assert.ok(
        receivers.body.results.some((r: { id: string; slug: string }) => r.id === RECEIVER && r.slug === 'kept-from-before'),
        'the receiver made before the upgrade is still there',
      );
      assert.equal((await call(app, 'DELETE', '/api/session', { headers: { cookie } })).status, 204);
      assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie } })).status, 401);
    },
  },
];
