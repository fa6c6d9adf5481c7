import assert from 'node:assert/strict';
import { freePort } from '../helpers/app';
import { call } from '../helpers/http';
import { Browser, signInAtProvider, ssoEnv, startProvider, type TPerson } from '../helpers/oidc';
import type { TUpgradeApp, TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0031 (a single sign-on user is the provider's subject, tests/integration/oidc.test.ts) on a
// database of the previous release: its staff are intact, and its single sign-on users are linked at
// their next sign-in. A real OpenID provider on loopback (tests/helpers/oidc.ts), started by the check
// once the app's callback URL is known, on a port chosen now for the app's settings.

const PROVIDER_PORT = await freePort();
const people = new Map<string, TPerson>([
  ['ivy', { email: 'ivy@corp.example', email_verified: true, groups: ['support-admins'] }],
  // Another account at the provider (another subject) that took over ivy's e-mail address.
  ['ivy-second', { email: 'ivy@corp.example', email_verified: true, groups: ['support-admins'] }],
]);

/** A whole sign-in as `login`: where the console's callback sends the browser, and the session cookie. */
async function signIn(app: TUpgradeApp, login: string) {
  const browser = new Browser();
  const callbackUrl = `${app.baseUrl}/auth/oidc/callback`;
  const start = await browser.request(`${app.baseUrl}/auth/oidc/start`);
  assert.equal(start.status, 303);
  const callback = await signInAtProvider(browser, new URL(start.headers.get('location')!, app.baseUrl).href, login, callbackUrl);
  const res = await browser.request(callback);
  assert.equal(res.status, 303, await res.text());
  const session = browser.cookies(app.baseUrl).get('gc_console_session');
  return { location: res.headers.get('location')!, cookie: session ? `gc_console_session=${session}` : '' };
}

export const steps: TUpgradeStep[] = [
  {
    name: 'a database of the previous release (0030) opens with its staff intact; its single sign-on users are linked at their next sign-in',
    release: '0030_troubled_receipts_in_page_order',
    rows: `insert into console.users (email, password_hash, role, role_from_claim) values ('ivy@corp.example', null, 'admin', true), ('joe@corp.example', 'scrypt$x', 'viewer', false);`,
    // Single sign-on as oidc.test.ts's app has it (without its PASSWORD_LOGIN=false: the other steps sign in with a password).
    env: { ...ssoEnv(`http://127.0.0.1:${PROVIDER_PORT}`, 'support-admins=admin, support=operator'), OIDC_ALLOWED_DOMAINS: 'corp.example' },
    check: async (app) => {
      const provider = await startProvider({ port: PROVIDER_PORT, redirectUri: `${app.baseUrl}/auth/oidc/callback`, people });
      try {
        const ivy = await signIn(app, 'ivy');
        assert.equal(ivy.location, '/');
        const users = await call(app, 'GET', '/api/users', { headers: { cookie: ivy.cookie } });
        assert.equal(users.status, 200, users.text);
        // Only corp.example's: other steps' users are in the list too.
        const old = users.body.results
          .filter((u: { email: string }) => u.email.endsWith('@corp.example'))
          .sort((a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email));
        assert.deepEqual(
          old.map((u: { email: string; role: string; signIn: string }) => [u.email, u.role, u.signIn]),
          [
            ['ivy@corp.example', 'admin', 'sso'],
            ['joe@corp.example', 'viewer', 'password'],
          ],
        );
        const login = (await call(app, 'GET', '/api/audit?action=login&actor=ivy%40corp.example', { headers: { cookie: ivy.cookie } })).body.results[0];
        assert.deepEqual([login.actor, login.detail.created, login.detail.linked], ['ivy@corp.example', false, true]);
        assert.equal((await signIn(app, 'ivy-second')).location, '/login?error=linked_elsewhere');
      } finally {
        await provider.close();
      }
    },
  },
];
