// Own app: single sign-on settings pointing at its own loopback OpenID provider, with restarts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, freePort, startApp, type TApp } from '../helpers/app';
import { call } from '../helpers/http';
import { Browser, CLIENT, signInAtProvider, ssoEnv, startProvider, startProxy, type TPerson, type TProvider, type TProxy } from '../helpers/oidc';

// @ci-one-store: CI runs this file in the embedded-store pass only (the flow, its checks and the user
// it signs in are the same on any store; PostgreSQL was checked by hand when it landed).
// Single sign-on against a real OpenID provider (oidc-provider) on loopback, driven as a browser
// would: the console's /auth/oidc/start, the provider's login form, the redirect back to
// /auth/oidc/callback. The console talks to the provider through a loopback proxy that can alter an
// ID token on its way or drop the token request; a second provider plays an issuer the console
// does not trust. Every failure must land on /login?error=<code> and be in the audit log.
// http issuers are allowed here only by OIDC_ALLOW_HTTP=true, which the app honours for loopback only.

const people = new Map<string, TPerson>([
  ['ada', { email: 'Ada@Corp.example', email_verified: true, groups: ['support-admins', 'everyone'] }],
  ['bob', { email: 'bob@corp.example', email_verified: true, groups: ['support'] }],
  ['carol', { email: 'carol@corp.example', email_verified: true, groups: ['everyone'] }],
  ['dave', { email: 'dave@corp.example', email_verified: true, groups: [] }],
  ['eve', { email: 'eve@other.example', email_verified: true, groups: ['support-admins'] }],
  ['frank', { email: 'frank@corp.example', email_verified: false, groups: ['support'] }],
  ['gina', { email: 'gina@corp.example', groups: ['support'] }], // no email_verified claim at all
  ['hal', { email: 'hal@corp.example', email_verified: true, groups: ['elsewhere'] }],
  // Other accounts at the provider (other subjects) that took over linked users' e-mail addresses.
  ['ada-second', { email: 'ada@corp.example', email_verified: true, groups: ['support-admins'] }],
  ['hal-second', { email: 'HAL@corp.example', email_verified: true, groups: ['support'] }],
]);

let app: TApp;
let provider: TProvider;
let foreign: TProvider; // another provider, with the same client, that the console does not trust
let proxy: TProxy;
let adminCookie = '';

const callbackOf = (a: TApp) => `${a.baseUrl}/auth/oidc/callback`;

before(async () => {
  const providerPort = await freePort();
  proxy = await startProxy(providerPort);
  app = await startApp({
    env: {
      ...ssoEnv(proxy.url, 'support-admins=admin, support=operator'),
      OIDC_DEFAULT_ROLE: 'viewer',
      OIDC_ALLOWED_DOMAINS: 'corp.example',
      PASSWORD_LOGIN: 'false',
    },
  });
  provider = await startProvider({ port: providerPort, issuer: proxy.url, redirectUri: callbackOf(app), people });
  foreign = await startProvider({ redirectUri: callbackOf(app), people });
});
after(async () => {
  await app?.destroy();
  await provider?.close();
  await foreign?.close();
  await proxy?.close();
});

/** GET /auth/oidc/start in `browser`: the provider's authorization URL it redirects to. */
async function start(browser: Browser, a: TApp = app, next?: string): Promise<URL> {
  const res = await browser.request(`${a.baseUrl}/auth/oidc/start${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  assert.equal(res.status, 303);
  return new URL(res.headers.get('location')!, a.baseUrl);
}

/** A whole sign-in as `login`: where the console's callback sends the browser, and the callback URL. */
async function signIn(login: string, options: { next?: string; browser?: Browser } = {}) {
  const browser = options.browser ?? new Browser();
  const authorization = await start(browser, app, options.next);
  const callback = await signInAtProvider(browser, authorization.href, login, callbackOf(app));
  const flowCookie = browser.cookies(app.baseUrl).get('gc_oidc_flow');
  const res = await browser.request(callback);
  assert.equal(res.status, 303, await res.text());
  const session = browser.cookies(app.baseUrl).get('gc_console_session');
  return { browser, callback, flowCookie, location: res.headers.get('location')!, cookie: session ? `gc_console_session=${session}` : '' };
}

async function audit(query: string): Promise<{ actor: string; action: string; result: string; detail: Record<string, unknown>; source: string }[]> {
  const res = await call(app, 'GET', `/api/audit?${query}`, { headers: { cookie: adminCookie } });
  assert.equal(res.status, 200, res.text);
  return res.body.results;
}

async function latestLogin(): Promise<{ actor: string; result: string; detail: Record<string, unknown> }> {
  return (await audit('action=login'))[0];
}

describe('single sign-on', () => {
  test('the start sends the browser to the provider with state, nonce and PKCE, remembered in a short-lived sealed cookie', async () => {
    const browser = new Browser();
    const res = await browser.request(`${app.baseUrl}/auth/oidc/start?next=${encodeURIComponent('//evil.example/x')}`);
    assert.equal(res.status, 303);
    const url = new URL(res.headers.get('location')!);
    assert.equal(`${url.origin}${url.pathname}`, `${proxy.url}/auth`);
    const q = url.searchParams;
    assert.equal(q.get('client_id'), CLIENT.id);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('redirect_uri'), callbackOf(app));
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('state') ?? '', /^[A-Za-z0-9_-]{32,}$/);
    assert.match(q.get('nonce') ?? '', /^[A-Za-z0-9_-]{32,}$/);
    assert.equal(q.get('scope'), 'openid email profile groups');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gc_oidc_flow='))!;
    assert.ok(cookie, 'the flow cookie is set');
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /Path=\/auth\/oidc/i);
    assert.match(cookie, /Max-Age=600/i);
    assert.match(cookie, /SameSite=lax/i);
    assert.ok(!cookie.includes(q.get('state')!), 'the state is sealed, not in clear');
  });

  test('a first sign-in makes the user (SSO-only, role from the claim), starts a session and is audited', async () => {
    const { location, cookie, browser } = await signIn('ada', { next: '/cases?q=gc-1' });
    assert.equal(location, '/cases?q=gc-1', 'back where the person was going');
    assert.ok(cookie, 'a staff session');
    assert.equal(browser.cookies(app.baseUrl).has('gc_oidc_flow'), false, 'the flow cookie is used up');
    adminCookie = cookie;
    const me = await call(app, 'GET', '/api/session', { headers: { cookie } });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, 'ada@corp.example');
    assert.equal(me.body.role, 'admin', 'support-admins → admin');
    const users = await call(app, 'GET', '/api/users', { headers: { cookie } });
    const ada = users.body.results.find((u: { email: string }) => u.email === 'ada@corp.example');
    assert.equal(ada.signIn, 'sso', 'no password');
    assert.ok(ada.lastLoginAt, 'the sign-in is recorded');
    const login = await latestLogin();
    assert.equal(login.actor, 'ada@corp.example');
    assert.equal(login.result, 'ok');
    assert.deepEqual(
      { method: login.detail.method, role: login.detail.role, created: login.detail.created, linked: login.detail.linked },
      { method: 'sso', role: 'admin', created: true, linked: true },
    );
    const created = (await audit('action=user.create'))[0];
    assert.equal(created.actor, 'ada@corp.example');
    assert.equal(created.detail.signIn, 'sso');
  });

  test('the role claim decides the role at each sign-in when it maps; otherwise the default role, and a known user keeps theirs', async () => {
    const bob = await signIn('bob');
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: bob.cookie } })).body.role, 'operator', 'support → operator');
    const users = await call(app, 'GET', '/api/users', { headers: { cookie: adminCookie } });
    const bobId = users.body.results.find((u: { email: string }) => u.email === 'bob@corp.example').id;
    assert.equal((await call(app, 'PATCH', `/api/users/${bobId}`, { headers: { cookie: adminCookie }, body: { role: 'viewer' } })).status, 200);
    const again = await signIn('bob');
    assert.equal(
      (await call(app, 'GET', '/api/session', { headers: { cookie: again.cookie } })).body.role,
      'operator',
      'the mapping decides over an admin’s change',
    );
    assert.equal((await audit('action=user.update'))[0].detail.role, 'viewer → operator', 'the change by the claim is audited');
    people.set('bob', { ...people.get('bob'), groups: ['elsewhere'] });
    const unmapped = await signIn('bob');
    assert.equal((await call(app, 'GET', '/api/session', { headers: { cookie: unmapped.cookie } })).body.role, 'operator', 'no mapping: the role stays');
    const carol = await signIn('carol');
    assert.equal(carol.location, '/');
    assert.equal(
      (await call(app, 'GET', '/api/session', { headers: { cookie: carol.cookie } })).body.role,
      'viewer',
      'OIDC_DEFAULT_ROLE for someone new whose claim maps to nothing',
    );
  });

  test('Staff says whose role the claim sets at each sign-in; a single-sign-on-only user has no password actions', async () => {
    const users = await call(app, 'GET', '/api/users', { headers: { cookie: adminCookie } });
    const byEmail = new Map<string, { id: string; roleFromClaim: boolean }>(users.body.results.map((u: { email: string }) => [u.email, u]));
    assert.equal(byEmail.get('ada@corp.example')?.roleFromClaim, true, 'support-admins → admin, by the claim');
    assert.equal(byEmail.get('bob@corp.example')?.roleFromClaim, false, 'his last sign-in’s claim mapped to nothing: his role stays, and is the console’s');
    assert.equal(byEmail.get('carol@corp.example')?.roleFromClaim, false, 'OIDC_DEFAULT_ROLE is no claim’s');
    const page = await call(app, 'GET', '/users', { headers: { cookie: adminCookie } });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-testid="role-claim-note"/, 'the page says roles follow the claim');
    assert.equal(page.text.match(/data-testid="role-from-claim"/g)?.length, 1, 'one user’s role is marked as set by the claim');
    assert.ok(!/Reset the password of [a-z]+@corp\.example/.test(page.text), 'no password actions for users who sign in only by single sign-on');
    assert.ok(page.text.includes(`Reset the password of ${ADMIN.email}`), 'the bootstrap admin (a password) has one');
    const reset = await call(app, 'POST', `/api/users/${byEmail.get('bob@corp.example')!.id}/password`, { headers: { cookie: adminCookie } });
    assert.equal(reset.status, 409, reset.text);
    const own = await call(app, 'GET', '/account/password', { headers: { cookie: adminCookie } });
    assert.equal(own.status, 200);
    assert.match(own.text, /sign in with single sign-on/);
    assert.ok(!own.text.includes('name="newPassword"'), 'no password form');
    const change = await call(app, 'POST', '/api/session/password', {
      headers: { cookie: adminCookie },
      body: { currentPassword: 'x', newPassword: 'whatever-new-1' },
    });
    assert.equal(change.status, 409);
    assert.match(change.body.detail, /kept by your identity provider/);
    assert.ok(
      !(await call(app, 'GET', '/webhooks', { headers: { cookie: adminCookie } })).text.includes('href="/account/password"'),
      'no Password link in the header',
    );
  });

  test('refusals by who the person is: another e-mail domain, an unverified e-mail, a deactivated user', async () => {
    const eve = await signIn('eve');
    assert.equal(eve.location, '/login?error=domain_not_allowed');
    assert.equal(eve.cookie, '');
    assert.deepEqual(await latestLogin(), { ...(await latestLogin()), actor: 'eve@other.example', result: 'domain_not_allowed' });
    const frank = await signIn('frank');
    assert.equal(frank.location, '/login?error=email_unverified');
    assert.equal((await latestLogin()).result, 'email_unverified');
    const gina = await signIn('gina'); // the provider does not say whether it verified her e-mail
    assert.equal(gina.location, '/login?error=email_unverified');
    assert.equal(gina.cookie, '');
    assert.equal((await latestLogin()).result, 'email_unverified');
    const page = await gina.browser.request(`${app.baseUrl}${gina.location}`);
    assert.match(
      await page.text(),
      /Your e-mail address is not verified at the identity provider, so this console cannot be sure it is yours\. Verify it there, then sign in again\./,
    );
    const users = await call(app, 'GET', '/api/users', { headers: { cookie: adminCookie } });
    const emails = users.body.results.map((u: { email: string }) => u.email);
    assert.ok(
      !emails.includes('eve@other.example') && !emails.includes('frank@corp.example') && !emails.includes('gina@corp.example'),
      'no user made for them',
    );
    const carolId = users.body.results.find((u: { email: string }) => u.email === 'carol@corp.example').id;
    assert.equal((await call(app, 'PATCH', `/api/users/${carolId}`, { headers: { cookie: adminCookie }, body: { disabled: true } })).status, 200);
    const carol = await signIn('carol');
    assert.equal(carol.location, '/login?error=disabled');
    assert.equal(carol.cookie, '');
    const login = await latestLogin();
    assert.deepEqual([login.actor, login.result, login.detail.method], ['carol@corp.example', 'disabled', 'sso']);
  });

  test('after the first sign-in, the person is the provider’s subject: another account with their e-mail is refused; a changed e-mail still signs them in', async () => {
    // Ada was made and linked by her first sign-in; another account at the provider now has her e-mail.
    const second = await signIn('ada-second');
    assert.equal(second.location, '/login?error=linked_elsewhere');
    assert.equal(second.cookie, '');
    const refused = await latestLogin();
    assert.deepEqual([refused.actor, refused.result, refused.detail.method], ['ada@corp.example', 'linked_elsewhere', 'sso']);
    const page = await second.browser.request(`${app.baseUrl}${second.location}`);
    assert.match(await page.text(), /A console user with this e-mail address signs in with another account at the identity provider/);
    // A staff user an admin added before their first single sign-on is linked by it, then only their subject is them.
    const added = await call(app, 'POST', '/api/users', {
      headers: { cookie: adminCookie },
      body: { email: 'hal@corp.example', role: 'operator', signIn: 'sso' },
    });
    assert.equal(added.status, 201, added.text);
    const hal = await signIn('hal');
    assert.equal(hal.location, '/');
    const halMe = await call(app, 'GET', '/api/session', { headers: { cookie: hal.cookie } });
    assert.deepEqual([halMe.body.email, halMe.body.role], ['hal@corp.example', 'operator'], 'the user the admin added, with their role');
    assert.deepEqual([(await latestLogin()).detail.created, (await latestLogin()).detail.linked], [false, true]);
    assert.equal((await signIn('hal-second')).location, '/login?error=linked_elsewhere', 'the e-mail, in other case, from another subject');
    // Ada's e-mail changes at the provider: she is still Ada (the console keeps the e-mail it has).
    people.set('ada', { ...people.get('ada'), email: 'ada.lovelace@corp.example' });
    try {
      const ada = await signIn('ada');
      assert.equal(ada.location, '/');
      const me = await call(app, 'GET', '/api/session', { headers: { cookie: ada.cookie } });
      assert.deepEqual([me.body.email, me.body.role], ['ada@corp.example', 'admin']);
      const login = await latestLogin();
      assert.deepEqual([login.actor, login.result, login.detail.created, login.detail.linked], ['ada@corp.example', 'ok', false, undefined]);
    } finally {
      people.set('ada', { ...people.get('ada'), email: 'Ada@Corp.example' });
    }
    const users = await call(app, 'GET', '/api/users', { headers: { cookie: adminCookie } });
    assert.ok(!users.body.results.some((u: { email: string }) => u.email === 'ada.lovelace@corp.example'), 'no second user made for her');
  });

  test('a state that does not match, or no sign-in started in this browser, is refused before the code is used', async () => {
    const browser = new Browser();
    const authorization = await start(browser);
    const callback = new URL(await signInAtProvider(browser, authorization.href, 'bob', callbackOf(app)));
    const forged = new URL(callback);
    forged.searchParams.set('state', 'x'.repeat(43));
    const res = await browser.request(forged.href);
    assert.equal(res.headers.get('location'), '/login?error=state_mismatch');
    assert.equal(browser.cookies(app.baseUrl).has('gc_console_session'), false);
    assert.deepEqual([(await latestLogin()).result, (await latestLogin()).detail.check], ['state_mismatch', 'state differs']);
    const stranger = new Browser(); // the callback URL, opened where no sign-in began
    assert.equal((await stranger.request(callback.href)).headers.get('location'), '/login?error=state_mismatch');
    assert.equal((await latestLogin()).detail.check, 'no sign-in started in this browser');
  });

  test('a code used once is refused the second time (the provider says so), and nobody is signed in by it', async () => {
    const first = await signIn('bob');
    assert.equal(first.location, '/');
    const replay = new Browser();
    replay.cookies(app.baseUrl).set('gc_oidc_flow', first.flowCookie!);
    const res = await replay.request(first.callback);
    assert.equal(res.headers.get('location'), '/login?error=code_rejected');
    assert.equal(replay.cookies(app.baseUrl).has('gc_console_session'), false);
    const login = await latestLogin();
    assert.deepEqual([login.result, login.detail.method, login.detail.check], ['code_rejected', 'sso', 'invalid_grant']);
  });

  test('a code that expired before it came back is refused', async () => {
    provider.codeTtlSeconds = 1;
    const browser = new Browser();
    let callback: string;
    try {
      callback = await signInAtProvider(browser, (await start(browser)).href, 'bob', callbackOf(app));
    } finally {
      provider.codeTtlSeconds = 60;
    }
    await new Promise((r) => setTimeout(r, 2100));
    const res = await browser.request(callback);
    assert.equal(res.headers.get('location'), '/login?error=code_rejected');
    assert.equal(browser.cookies(app.baseUrl).has('gc_console_session'), false);
    assert.equal((await latestLogin()).detail.check, 'invalid_grant');
  });

  test('an ID token altered on its way fails its signature check', async () => {
    proxy.mode = 'tamper-id-token';
    try {
      const res = await signIn('bob');
      assert.equal(res.location, '/login?error=bad_token');
      assert.equal(res.cookie, '');
    } finally {
      proxy.mode = 'pass';
    }
    assert.equal((await latestLogin()).result, 'bad_token');
    const users = await call(app, 'GET', '/api/users', { headers: { cookie: adminCookie } });
    assert.ok(!users.body.results.some((u: { email: string }) => u.email === 'mallory@corp.example'), 'the altered e-mail made nobody');
  });

  test('an answer from another issuer (a provider the console does not trust) is refused', async () => {
    const browser = new Browser();
    const authorization = await start(browser);
    // The same request, answered by the other provider: it signs the person in and sends the browser back.
    const elsewhere = new URL(`${authorization.pathname}${authorization.search}`, foreign.issuer);
    const callback = await signInAtProvider(browser, elsewhere.href, 'bob', callbackOf(app));
    assert.equal(new URL(callback).searchParams.get('iss'), foreign.issuer);
    const res = await browser.request(callback);
    assert.equal(res.headers.get('location'), '/login?error=wrong_issuer');
    assert.equal(browser.cookies(app.baseUrl).has('gc_console_session'), false);
    assert.equal((await latestLogin()).result, 'wrong_issuer');
  });

  test('a person who cancels at the provider comes back to the login page', async () => {
    const browser = new Browser();
    const authorization = await start(browser);
    const page = await browser.follow(authorization.href, callbackOf(app));
    const abort = /href="([^"]*\/abort)"/.exec(await page.res!.text())?.[1];
    assert.ok(abort, 'the provider offers to cancel');
    const back = await browser.follow(new URL(abort, page.url).href, callbackOf(app));
    assert.equal(new URL(back.url).searchParams.get('error'), 'access_denied');
    const res = await browser.request(back.url);
    assert.equal(res.headers.get('location'), '/login?error=idp_cancelled');
    const login = await latestLogin();
    assert.deepEqual([login.result, login.detail.check], ['idp_cancelled', 'access_denied']);
    const page2 = await browser.request(`${app.baseUrl}/login?error=idp_cancelled`);
    assert.match(await page2.text(), /Sign-in was cancelled at Corp SSO\. Start again when you are ready\./, 'the login page names the provider');
  });

  test('the provider unreachable at the token exchange', async () => {
    proxy.mode = 'drop-token';
    try {
      assert.equal((await signIn('bob')).location, '/login?error=idp_unreachable');
    } finally {
      proxy.mode = 'pass';
    }
    assert.equal((await latestLogin()).result, 'idp_unreachable');
  });

  test('the login page: only the single sign-on button; a known error code as its sentence, anything else not at all', async () => {
    const page = await call(app, 'GET', '/login?error=code_rejected');
    assert.equal(page.status, 200);
    assert.match(page.text, /Sign in with Corp SSO/);
    assert.match(page.text, /href="\/auth\/oidc\/start"/);
    assert.doesNotMatch(page.text, /name="password"/, 'no password form');
    assert.match(page.text, /refused the sign-in code: it was already used or has expired/);
    const hostile = await call(app, 'GET', `/login?error=${encodeURIComponent('<script>alert(1)</script>')}&next=${encodeURIComponent('/cases?q=1')}`);
    assert.doesNotMatch(hostile.text, /<script>alert|&lt;script&gt;alert/, 'not echoed (the URL itself is in Next’s encoded page data)');
    assert.doesNotMatch(hostile.text, /role="alert"/);
    assert.match(hostile.text, /href="\/auth\/oidc\/start\?next=%2Fcases%3Fq%3D1"/);
  });

  test('PASSWORD_LOGIN=false refuses a password, even the right one, and says how to sign in', async () => {
    const res = await call(app, 'POST', '/api/session', { body: ADMIN });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    assert.match(res.body.detail, /Password sign-in is turned off on this console: sign in with Corp SSO/);
    assert.equal(
      res.headers.getSetCookie().some((c) => c.startsWith('gc_console_session=')),
      false,
    );
    const login = (await audit(`action=login&actor=${ADMIN.email}`))[0];
    assert.deepEqual([login.result, login.detail.method], ['password_off', 'password']);
  });

  test('without OIDC_DEFAULT_ROLE, someone the console does not know is refused; known users still sign in', async () => {
    await app.restart({ OIDC_DEFAULT_ROLE: '' });
    const dave = await signIn('dave');
    assert.equal(dave.location, '/login?error=no_role');
    assert.equal(dave.cookie, '');
    const bob = await signIn('bob');
    assert.equal(bob.location, '/');
    const login = (await audit('action=login&actor=dave@corp.example'))[0];
    assert.deepEqual([login.result, login.detail.method], ['no_role', 'sso']);
  });

  test('a provider marked as verifying every e-mail (OIDC_EMAIL_VERIFIED_BY_PROVIDER=true): a token without the claim passes, one saying unverified does not', async () => {
    await app.restart({ OIDC_EMAIL_VERIFIED_BY_PROVIDER: 'true' });
    const gina = await signIn('gina');
    assert.equal(gina.location, '/');
    const me = await call(app, 'GET', '/api/session', { headers: { cookie: gina.cookie } });
    assert.deepEqual([me.body.email, me.body.role], ['gina@corp.example', 'operator']);
    assert.equal((await signIn('frank')).location, '/login?error=email_unverified');
  });
});

describe('a provider that cannot be used', () => {
  let other: TApp;
  let cookie = '';
  before(async () => {
    const closed = await freePort(); // nothing listens there
    other = await startApp({
      env: { OIDC_ISSUER: `http://127.0.0.1:${closed}`, OIDC_ALLOW_HTTP: 'true', OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret },
    });
    const res = await call(other, 'POST', '/api/session', { body: ADMIN });
    assert.equal(res.status, 200, 'passwords still work by default');
    cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('gc_console_session='))!
      .split(';')[0];
  });
  after(async () => {
    await other?.destroy();
  });

  const lastLogin = async () => (await call(other, 'GET', '/api/audit?action=login', { headers: { cookie } })).body.results[0];

  test('unreachable: the login page says so, beside the password form', async () => {
    const browser = new Browser();
    const res = await browser.request(`${other.baseUrl}/auth/oidc/start?next=%2Fproblems`);
    assert.equal(res.headers.get('location'), '/login?error=idp_unreachable&next=%2Fproblems');
    assert.equal(browser.cookies(other.baseUrl).has('gc_oidc_flow'), false, 'no flow begun');
    const login = await lastLogin();
    assert.deepEqual([login.actor, login.result, login.detail.method], ['(single sign-on)', 'idp_unreachable', 'sso']);
    const page = await call(other, 'GET', '/login?error=idp_unreachable');
    assert.match(page.text, /Sign in with SSO/);
    assert.match(page.text, /name="password"/);
    assert.match(page.text, /could not be reached/);
  });

  test('an issuer whose discovery document names another issuer is refused', async () => {
    // The foreign provider, reached by another name: its metadata says http://127.0.0.1:…, not http://localhost:….
    await other.restart({ OIDC_ISSUER: `http://localhost:${foreign.port}` });
    const res = await new Browser().request(`${other.baseUrl}/auth/oidc/start`);
    assert.equal(res.headers.get('location'), '/login?error=wrong_issuer');
    const login = await lastLogin();
    assert.deepEqual([login.result, login.detail.check], ['wrong_issuer', 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED']);
  });
});
