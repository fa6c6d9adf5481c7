import { freePort, startApp, type TApp } from '../helpers/app';
import { ssoEnv, startProvider, type TProvider } from '../helpers/oidc';
import type { Browser, Page } from '@playwright/test';
import { expect, screenshot, test, watchCsp } from './fixtures';

// Single sign-on in Chromium: the login page's button, the provider's own login form (oidc-provider
// on loopback), back in the console signed in with the role the groups claim maps to. Screenshots
// of the login page at 1280 and 390 px, with and without a failure's sentence. The console's
// Content-Security-Policy refuses nothing on the way (its form-action does not stop the provider's redirects).

const NO_SESSION = { cookies: [], origins: [] };
let app: TApp;
let provider: TProvider;

test.beforeAll(async () => {
  const port = await freePort();
  app = await startApp({ env: ssoEnv(`http://127.0.0.1:${port}`, 'support=operator') });
  provider = await startProvider({
    port,
    redirectUri: `${app.baseUrl}/auth/oidc/callback`,
    people: new Map([
      ['grace', { email: 'grace@corp.example', email_verified: true, groups: ['support'] }],
      ['uma', { email: 'uma@corp.example', groups: ['support'] }], // the provider does not say it verified her e-mail
    ]),
  });
});
test.afterAll(async () => {
  await app?.destroy();
  await provider?.close();
});

/** A browser context on the console (nothing leaves loopback), and the console's CSP violations in it. */
async function consoleContext(browser: Browser, width = 1280) {
  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: NO_SESSION, viewport: { width, height: 800 } });
  // The provider's development login page imports a web font: nothing leaves loopback.
  await context.route(
    (url) => !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname),
    (route) => route.abort(),
  );
  const seen = await watchCsp(context);
  return { context, page: await context.newPage(), csp: () => seen.filter((v) => v.startsWith(app.baseUrl)) };
}

/** The provider's development login form: any password, the login names the person. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('a person signs in with the company account and lands in the console with their mapped role', async ({ browser }) => {
  const { context, page, csp } = await consoleContext(browser);
  await page.goto('/login?next=%2Fproblems');
  const sso = page.getByRole('link', { name: 'Sign in with Corp SSO' });
  await expect(sso).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await screenshot(page, 'login-sso');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'login-sso-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await sso.click();
  await signInAtProvider(page, 'grace');
  await page.waitForURL((url) => url.origin === app.baseUrl && url.pathname === '/problems');
  const me = await page.request.get('/api/session');
  expect(await me.json()).toMatchObject({ email: 'grace@corp.example', role: 'operator' });
  expect(csp(), 'no Content-Security-Policy violation on the console’s pages').toEqual([]);
  await context.close();
});

test('an e-mail the provider does not say it verified is refused, with a sentence saying why', async ({ browser }) => {
  const { context, page, csp } = await consoleContext(browser);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  await signInAtProvider(page, 'uma');
  await page.waitForURL((url) => url.origin === app.baseUrl && url.pathname === '/login');
  // Next's route announcer is an alert too (empty): the sentence's is the one about the e-mail.
  await expect(page.getByRole('alert').filter({ hasText: 'e-mail' })).toHaveText(
    'Your e-mail address is not verified at the identity provider, so this console cannot be sure it is yours. Verify it there, then sign in again.',
  );
  expect((await page.request.get('/api/session')).status()).toBe(401);
  expect(csp()).toEqual([]);
  await context.close();
});

test('a failed sign-in shows one sentence on the login page', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: NO_SESSION, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/login?error=domain_not_allowed');
  await expect(page.getByRole('alert').filter({ hasText: 'e-mail' })).toHaveText('Your e-mail domain may not sign in to this console.');
  await screenshot(page, 'login-sso-error-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'login-sso-error');
  await context.close();
});
