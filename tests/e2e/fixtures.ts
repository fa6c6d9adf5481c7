import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { ADMIN, SANDBOX, startApp, type TApp } from '../helpers/app';

// Typed fixtures: one app per worker (built app, fresh database), a staff session made once per
// worker through the real login form, and `page` signed in with it; `anonPage` has no session.
// The fixture setter is named `provide`, not `use`, so the React hooks lint rule leaves it alone.

type TStorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
type TWorkerFixtures = { app: TApp; staffState: TStorageState; publicHost: string | undefined };
type TTestFixtures = { anonPage: Page; appLogsOnFailure: void; noCspViolation: void };

// browser.newContext() inherits the test's `use` options, the staff session included: start empty.
const NO_SESSION = { cookies: [], origins: [] };

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** Full-page screenshot into test-results/screenshots/{name}.png (an artifact of the run). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * A picture the docs show (docs/{name}.png), taken again only when DOCS_SCREENSHOTS=1: a test run
 * otherwise leaves the tracked files as they were (the picture goes to the run's screenshots).
 */
export async function docsScreenshot(target: Page | Locator, name: string, { fullPage = true } = {}): Promise<void> {
  const dir = process.env.DOCS_SCREENSHOTS === '1' ? path.resolve(import.meta.dirname, '../../docs') : SCREENSHOTS;
  fs.mkdirSync(dir, { recursive: true });
  await target.screenshot({ path: path.join(dir, `${name}.png`), ...('goto' in target ? { fullPage } : {}) });
}

/** Refuses a TEST_DATABASE_URL that is not on this machine: the suite creates databases there. */
function assertLocalDatabase(): void {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const host = new URL(url).hostname;
  if (!['localhost', '127.0.0.1', '::1', '[::1]'].includes(host))
    throw new Error(`TEST_DATABASE_URL points at ${host}; the e2e suite only runs against a local database.`);
}

export async function logIn(page: Page, creds: { email: string; password: string } = ADMIN): Promise<void> {
  await page.getByLabel('E-mail').fill(creds.email);
  await page.getByLabel('Password').fill(creds.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The sandbox's API credentials as a bearer header (client credentials against the app's own service). */
export async function sandboxAuth(req: APIRequestContext, baseUrl: string): Promise<{ authorization: string }> {
  const res = await req.post(`${baseUrl}/oauth/token`, {
    data: { client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret, audience: SANDBOX.audience, grant_type: 'client_credentials' },
  });
  expect(res.status(), `POST /oauth/token: ${await res.text()}`).toBe(200);
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}

/** The console's landing page after sign-in: the health home. */
export const AFTER_SIGN_IN = (url: URL) => url.pathname === '/';

/** A new browser context signed in to the app at `baseUrl` (for tests that start apps of their own). */
export async function signedInPage(browser: Browser, baseUrl: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, storageState: NO_SESSION });
  const page = await context.newPage();
  await page.goto('/login');
  await logIn(page);
  await page.waitForURL(AFTER_SIGN_IN);
  return page;
}

/**
 * The Content-Security-Policy violations in `context`'s pages from now on, as Chromium reports
 * them: its console message, and the page's securitypolicyviolation event (listened for before any
 * script of the page runs).
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || 'an inline part'} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  context.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|CSP violation/.test(msg.text())) seen.push(`${msg.page()?.url()}: ${msg.text()}`);
  });
  return seen;
}

export const test = base.extend<TTestFixtures, TWorkerFixtures>({
  // `test.use({ publicHost: 'localhost' })`: the app's URL says localhost (the README's default setup).
  publicHost: [undefined, { option: true, scope: 'worker' }],
  app: [
    async ({ publicHost }, provide) => {
      assertLocalDatabase();
      const app = await startApp({ publicHost });
      try {
        await provide(app);
      } finally {
        await app.destroy();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  staffState: [
    async ({ app, browser }, provide) => {
      const page = await signedInPage(browser, app.baseUrl);
      const state = await page.context().storageState();
      await page.context().close();
      await provide(state);
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ app }, provide) => provide(app.baseUrl),
  storageState: async ({ staffState }, provide) => provide(staffState),
  anonPage: async ({ browser, app }, provide) => {
    const context = await browser.newContext({ baseURL: app.baseUrl, storageState: NO_SESSION });
    await provide(await context.newPage());
    await context.close();
  },
  appLogsOnFailure: [
    async ({ app }, provide, testInfo) => {
      await provide();
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('app.log', { body: app.logs(), contentType: 'text/plain' });
    },
    { auto: true },
  ],
  // Every page a test opens in its `page`'s context: the console's policy refuses nothing the console itself does.
  noCspViolation: [
    async ({ context }, provide) => {
      const seen = await watchCsp(context);
      await provide();
      expect(seen, 'no Content-Security-Policy violation').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Nothing scrolls sideways: the page is at most `width` px wide (polled: charts and tables settle after a resize). */
export async function expectFitsWidth(page: Page, width: number, what = page.url()): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${what} is at most ${width} px wide` })
    .toBeLessThanOrEqual(width);
}
