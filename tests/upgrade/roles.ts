import assert from 'node:assert/strict';
import { hashSecret } from '../../lib/crypto/secrets';
import { ADMIN } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// The staff roles (migration 0015) on users of a release before them (0012): they are admins and
// sign in as before. (From roles.test.ts.)

const EMAIL = 'old-roles-0012@example.org'; // its own user: other steps add theirs to the walked database
const PASSWORD = 'old-release-pass';
// Hashed at load, as the old release stored it (the rows are written before any check runs).
const hash = await hashSecret(PASSWORD);

export const steps: TUpgradeStep[] = [
  {
    name: 'staff roles: the users of a release before them are admins and sign in as before',
    release: '0012_attempt_rollups',
    rows: `insert into console.users (email, password_hash) values ('${EMAIL}', '${hash}');`,
    check: async (app) => {
      const cookie = await staffCookie(app, { email: EMAIL, password: PASSWORD });
      const session = await call(app, 'GET', '/api/session', { headers: { cookie } });
      assert.equal(session.body.role, 'admin');
      const users = await call(app, 'GET', '/api/users', { headers: { cookie } });
      assert.equal(users.status, 200);
      // Only this step's user and the bootstrap admin: the walked database holds other steps' users,
      // whose roles their own steps check.
      assert.deepEqual(
        users.body.results
          .filter((u: { email: string }) => [ADMIN.email, EMAIL].includes(u.email))
          .map((u: { email: string; role: string }) => [u.email, u.role])
          .sort(),
        [
          [ADMIN.email, 'admin'],
          [EMAIL, 'admin'],
        ],
      );
    },
  },
];
