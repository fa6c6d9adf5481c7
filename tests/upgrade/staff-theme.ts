import assert from 'node:assert/strict';
import { hashSecret } from '../../lib/crypto/secrets';
import { call, staffCookie } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0028 (a staff member's theme) on users of the release before it: they sign in on the
// system theme and can choose another. (From staff-theme.test.ts.)

const EMAIL = 'old-theme@example.org';
const PASSWORD = 'old-password-1';
const hash = await hashSecret(PASSWORD);

/** The class attribute of the page's <html> element ('' for none). */
function htmlClass(html: string): string {
  const tag = /<html\b[^>]*>/.exec(html)?.[0] ?? '';
  assert.ok(tag, 'the page has an <html> element');
  return /\bclass="([^"]*)"/.exec(tag)?.[1] ?? '';
}

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0028: its users sign in on the system theme and can choose another',
    release: '0027_service_leases',
    rows: `insert into console.users (email, password_hash, role) values ('${EMAIL}', '${hash}', 'operator');`,
    check: async (app) => {
      const cookie = await staffCookie(app, { email: EMAIL, password: PASSWORD });
      const session = await call(app, 'GET', '/api/session', { headers: { cookie } });
      assert.deepEqual([session.status, session.body.email, session.body.role, session.body.theme], [200, EMAIL, 'operator', 'system']);
      assert.equal((await call(app, 'PATCH', '/api/session', { headers: { cookie }, body: { theme: 'dark' } })).status, 200);
      assert.equal(htmlClass((await call(app, 'GET', '/webhooks', { headers: { cookie } })).text), 'dark');
    },
  },
];
