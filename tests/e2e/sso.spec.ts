import { freePort, startApp, type TApp } from '../helpers/app';
import { ssoEnv, startProvider, type TProvider } from '../helpers/oidc';
import { expect, screenshot, test } from './fixtures';

// Single sign-on in Chromium: the login page's button, the provider's own login form (oidc-provider
// on loopback), back in the console signed in with the role the groups claim maps to. Screenshots
// of the login page at 1280 and 390 px, with and without a failure's sentence.

const NO_SESSION = { cookies: [], origins: [] };
let app: TApp;
let provider: TProvider;

test.beforeAll(async () => {
  const port = await freePort();
  app = await startApp({ env: ssoEnv(`http://127.0.0.1:${port}`, 'support=operator') });
  provider = await startProvider({ port, redirectUri: `${app.baseUrl}/auth/oidc/callback`, people: new Map([['grace', { email: 'grace@corp.example', email_verified: true, groups: ['support'] }]]) });
});
test.afterAll(async () => {
  await app?.destroy();
  await provider?.close();
});

test('a person signs in with the company account and lands in the console with their mapped role', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: NO_SESSION, viewport: { width: 1280, height: 800 } });
  // The provider's development login page imports a web font: nothing leaves loopback.
  await context.route((url) => !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname), (route) => route.abort());
  const page = await context.newPage();
  await page.goto('/login?next=%2Fproblems');
  const sso = page.getByRole('link', { name: 'Sign in with Corp SSO' });
  await expect(sso).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await screenshot(page, 'login-sso');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'login-sso-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await sso.click();
  // The provider's development login form: any password, the login names the person.
  await page.locator('input[name="login"]').fill('grace');
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.origin === app.baseUrl && url.pathname === '/problems');
  const me = await page.request.get('/api/session');
  expect(await me.json()).toMatchObject({ email: 'grace@corp.example', role: 'operator' });
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
