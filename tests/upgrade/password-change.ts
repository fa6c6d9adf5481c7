import assert from 'node:assert/strict';
import { hashSecret } from '../../lib/crypto/secrets';
import { ADMIN } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0024 (a one-time password's flags, tests/integration/password-change.test.ts) on a
// database of the previous release: its users sign in as before.

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0024 on a database of the previous release: its users sign in as before, no password change demanded, no role said to come from a claim',
    release: '0023_failing_warnings',
    rows: `insert into console.users (email, password_hash, role) values ('old-operator@example.org', '${await hashSecret('old-password-1')}', 'operator');`,
    check: async (app) => {
      const res = await call(app, 'POST', '/api/session', { body: { email: 'old-operator@example.org', password: 'old-password-1' } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.mustChangePassword, false);
      const cookie = await staffCookie(app, ADMIN);
      const users = await call(app, 'GET', '/api/users', { headers: { cookie } });
      const row = users.body.results.find((u: { email: string }) => u.email === 'old-operator@example.org');
      assert.deepEqual([row.role, row.mustChangePassword, row.roleFromClaim], ['operator', false, false]);
    },
  },
];
