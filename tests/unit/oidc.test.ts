import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEnv } from '@/lib/env';
import { isLoopbackUrl, OIDC_ROLES, parseRoleMap } from '@/lib/env-oidc';
import { claimAt, domainAllowed, emailOf, mappedRole } from '@/lib/console/staff/oidc-claims';
import { ssoErrorMessage, SSO_ERRORS } from '@/lib/console/staff/oidc-errors';
import { ROLES } from '@/lib/console/staff/roles';

// Single sign-on's settings (a half-made setup stops the start with one line naming the variable),
// the role mapping and the claims checks. The flow itself: tests/integration/oidc.test.ts.

const BASE = { OIDC_ISSUER: 'https://login.example.org', OIDC_CLIENT_ID: 'console' };

test('the settings parse: role map, domains, default role, password login', () => {
  const env = parseEnv({
    ...BASE,
    OIDC_ROLE_CLAIM: 'groups',
    OIDC_ROLE_MAP: 'support-admins=admin, support=operator ,Everyone Else=viewer',
    OIDC_DEFAULT_ROLE: 'viewer',
    OIDC_ALLOWED_DOMAINS: 'Example.org, @example.com',
    PASSWORD_LOGIN: 'false',
  });
  assert.deepEqual(env.OIDC_ROLE_MAP, [
    { value: 'support-admins', role: 'admin' },
    { value: 'support', role: 'operator' },
    { value: 'Everyone Else', role: 'viewer' },
  ]);
  assert.deepEqual(env.OIDC_ALLOWED_DOMAINS, ['example.org', 'example.com']);
  assert.equal(env.OIDC_DEFAULT_ROLE, 'viewer');
  assert.equal(env.PASSWORD_LOGIN, false);
  assert.equal(env.OIDC_SCOPES, 'openid email profile');
  const off = parseEnv({});
  assert.equal(off.OIDC_ISSUER, undefined);
  assert.equal(off.PASSWORD_LOGIN, true);
  assert.deepEqual(off.OIDC_ROLE_MAP, []);
});

const bad: [Record<string, string>, RegExp][] = [
  [{ OIDC_CLIENT_ID: 'console' }, /^Invalid configuration: OIDC_CLIENT_ID is set but OIDC_ISSUER is not/],
  [{ PASSWORD_LOGIN: 'false' }, /^Invalid configuration: PASSWORD_LOGIN is false but OIDC_ISSUER is not set: nobody could sign in/],
  [{ OIDC_ISSUER: 'https://login.example.org' }, /^Invalid configuration: OIDC_CLIENT_ID must be set with OIDC_ISSUER/],
  [
    { ...BASE, OIDC_ISSUER: 'http://login.example.org' },
    /^Invalid configuration: OIDC_ISSUER must be an https URL \(http is allowed only for a loopback issuer, with OIDC_ALLOW_HTTP=true\)/,
  ],
  [{ ...BASE, OIDC_ISSUER: 'http://login.example.org', OIDC_ALLOW_HTTP: 'true' }, /^Invalid configuration: OIDC_ISSUER must be an https URL/],
  [{ ...BASE, OIDC_ISSUER: 'http://127.0.0.1:9999' }, /^Invalid configuration: OIDC_ISSUER is http: set OIDC_ALLOW_HTTP=true to allow it/],
  [
    { ...BASE, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'support=owner' },
    /^Invalid configuration: OIDC_ROLE_MAP maps "support" to "owner": a role is viewer, operator or admin/,
  ],
  [
    { ...BASE, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'support:admin' },
    /^Invalid configuration: OIDC_ROLE_MAP must be value=role pairs separated by commas/,
  ],
  [{ ...BASE, OIDC_ROLE_MAP: 'support=admin' }, /^Invalid configuration: OIDC_ROLE_CLAIM must be set with OIDC_ROLE_MAP/],
  [{ ...BASE, OIDC_ROLE_CLAIM: 'groups' }, /^Invalid configuration: OIDC_ROLE_MAP must be set with OIDC_ROLE_CLAIM/],
  [{ ...BASE, OIDC_DEFAULT_ROLE: 'root' }, /^Invalid configuration: OIDC_DEFAULT_ROLE must be viewer, operator or admin/],
  [{ ...BASE, OIDC_ALLOWED_DOMAINS: 'example.org, not a domain' }, /^Invalid configuration: OIDC_ALLOWED_DOMAINS must be e-mail domains/],
  [{ ...BASE, OIDC_SCOPES: 'email profile' }, /^Invalid configuration: OIDC_SCOPES must include openid/],
  [{ OIDC_EMAIL_VERIFIED_BY_PROVIDER: 'true' }, /^Invalid configuration: OIDC_EMAIL_VERIFIED_BY_PROVIDER is true but OIDC_ISSUER is not set/],
  [{ ...BASE, OIDC_EMAIL_VERIFIED_BY_PROVIDER: 'maybe' }, /^Invalid configuration: OIDC_EMAIL_VERIFIED_BY_PROVIDER must be true or false/],
];
for (const [source, message] of bad) {
  test(`bad single sign-on settings → one line naming the variable: ${JSON.stringify(source)}`, () => {
    assert.throws(
      () => parseEnv(source),
      (err: Error) => {
        assert.equal(err.message.split('\n').length, 1, err.message);
        assert.match(err.message, message);
        return true;
      },
    );
  });
}

test('a client secret in a bad setup is never printed', () => {
  assert.throws(
    () => parseEnv({ OIDC_CLIENT_SECRET: 'very-secret-value' }),
    (err: Error) => {
      assert.match(err.message, /OIDC_CLIENT_SECRET is set but OIDC_ISSUER is not/);
      assert.doesNotMatch(err.message, /very-secret-value/);
      return true;
    },
  );
});

test('http is allowed only for a loopback issuer, and only when asked', () => {
  for (const u of ['http://localhost:8080', 'http://127.0.0.1:1', 'http://127.5.6.7', 'http://[::1]:80']) assert.ok(isLoopbackUrl(u), u);
  for (const u of ['http://10.0.0.1', 'http://localhost.example.org', 'http://example.org', 'not a url']) assert.ok(!isLoopbackUrl(u), u);
  assert.equal(parseEnv({ ...BASE, OIDC_ISSUER: 'http://localhost:8080', OIDC_ALLOW_HTTP: 'true' }).OIDC_ALLOW_HTTP, true);
});

test('the role names here are the console’s', () => {
  assert.deepEqual([...OIDC_ROLES], [...ROLES]);
  assert.deepEqual(parseRoleMap(' , '), { error: 'must name at least one value=role pair' });
  assert.match((parseRoleMap('a=admin,a=viewer') as { error: string }).error, /names "a" twice/);
});

test('the highest mapped role wins; strings, lists and nested claims count; nothing maps → null', () => {
  const map = [
    { value: 'support-admins', role: 'admin' as const },
    { value: 'support', role: 'operator' as const },
    { value: 'everyone', role: 'viewer' as const },
  ];
  assert.equal(mappedRole({ groups: ['everyone', 'support-admins', 'support'] }, 'groups', map), 'admin');
  assert.equal(mappedRole({ groups: ['everyone', 'support'] }, 'groups', map), 'operator');
  assert.equal(mappedRole({ groups: 'everyone' }, 'groups', map), 'viewer');
  assert.equal(mappedRole({ roles: 'everyone support' }, 'roles', map), 'operator', 'a space-separated string');
  assert.equal(mappedRole({ realm_access: { roles: ['support'] } }, 'realm_access.roles', map), 'operator');
  assert.equal(mappedRole({ groups: ['Support'] }, 'groups', map), null, 'values are compared exactly');
  assert.equal(mappedRole({ groups: [1, null, { support: true }] }, 'groups', map), null);
  assert.equal(mappedRole({}, 'groups', map), null);
  assert.equal(mappedRole({ groups: ['support'] }, undefined, map), null);
  assert.equal(claimAt({ 'a.b': 1, a: { b: 2 } }, 'a.b'), 1, 'a claim named with a dot wins');
});

test('the e-mail: present, well-formed, said to be verified (or the provider marked as verifying); its domain in the list', () => {
  assert.deepEqual(emailOf({ email: ' Ada@Corp.Example ', email_verified: true }), { ok: true, email: 'ada@corp.example' });
  assert.deepEqual(emailOf({ email: 'ada@corp.example', email_verified: 'true' }), { ok: true, email: 'ada@corp.example' }, 'the claim as a string');
  assert.deepEqual(emailOf({ email: 'ada@corp.example' }), { ok: false, code: 'email_unverified' }, 'no email_verified claim: not verified');
  assert.deepEqual(emailOf({ email: 'ada@corp.example', email_verified: 1 }), { ok: false, code: 'email_unverified' });
  assert.deepEqual(emailOf({ email: 'ada@corp.example' }, true), { ok: true, email: 'ada@corp.example' }, 'a provider marked as verifying every e-mail');
  for (const verifiedByProvider of [false, true]) {
    assert.deepEqual(emailOf({ email: 'ada@corp.example', email_verified: false }, verifiedByProvider), { ok: false, code: 'email_unverified' });
    assert.deepEqual(emailOf({ email: 'ada@corp.example', email_verified: 'false' }, verifiedByProvider), { ok: false, code: 'email_unverified' });
  }
  assert.deepEqual(emailOf({}), { ok: false, code: 'no_email' });
  assert.deepEqual(emailOf({ email: ['a@b.c'] }), { ok: false, code: 'no_email' });
  assert.deepEqual(emailOf({ email: 'not-an-address' }), { ok: false, code: 'no_email' });
  assert.ok(domainAllowed('a@corp.example', []));
  assert.ok(domainAllowed('a@corp.example', ['corp.example']));
  assert.ok(!domainAllowed('a@sub.corp.example', ['corp.example']), 'exactly the domain');
  assert.ok(!domainAllowed('a@corp.example.evil', ['corp.example']));
});

test('the login page shows a sentence only for a code this console made', () => {
  for (const [code, sentence] of Object.entries(SSO_ERRORS)) {
    assert.equal(ssoErrorMessage(code), sentence);
    assert.match(sentence, /^[A-Z].*\.$/, `${code}: one sentence`);
  }
  for (const odd of ['<script>', 'toString', '__proto__', 'constructor', '', undefined, ['sso_off', 'x']]) {
    assert.equal(ssoErrorMessage(odd), Array.isArray(odd) ? SSO_ERRORS.sso_off : undefined, String(odd));
  }
});
