import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { COLOUR_RULES, expectNoSeriousA11yViolations } from './axe';
import { expect, logIn, test, sandboxAuth } from './fixtures';

// A team's tool in Chromium: the admin adds a viewer and an operator (one-time passwords shown
// once, each changed at the first sign-in); the viewer opens a message and its case without the secret, the donor's e-mail or the
// Resend button; the operator shares the case; the link opens in a fresh context without login,
// masked; revoked, it answers 410. Screenshots at 1280 and 390 px into tests/.tmp/team/.

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/team');
async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function ok<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** A receiver holding the webhook's secret, the webhook, and one grant delivered to it. */
async function setUp(page: Page, baseUrl: string) {
  const req = page.request;
  const auth = await sandboxAuth(req, baseUrl);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await ok(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Team receiver', secret } }), 201);
  const webhook = (
    await ok(
      await req.post(`${baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Team hook', secret },
      }),
      201,
    )
  ).id as string;
  const ein = `48${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const np = await ok(await req.post(`${baseUrl}/v1/nonprofits`, { headers: auth, data: { ein, user: { email: 'director@example.org' } } }), 201);
  const created = await ok(await req.post(`${baseUrl}/v1/connects?nonprofit=${np.id}`, { headers: auth }), 201);
  const connect = await ok(await req.get(`${baseUrl}/v1/connects/${created.id}`, { headers: auth }), 200);
  const email = `katherine-${randomBytes(4).toString('hex')}@example.org`;
  const grant = await ok(
    await req.post(`${baseUrl}/v1/grants`, {
      headers: { ...auth, 'x-service-api-key': connect.apiKey },
      data: { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Katherine', lastName: 'Johnson', email },
    }),
    201,
  );
  let messageId = '';
  await expect
    .poll(
      async () => {
        const list = await ok(await req.get(`${baseUrl}/v1/webhooks/${webhook}/messages`, { headers: auth }), 200);
        messageId = list.results[0]?.id ?? '';
        return list.results[0]?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('success');
  return { secret, webhook, messageId, email, trackingId: grant.trackingId as string };
}

async function addUser(page: Page, email: string, role: string): Promise<string> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByText(`The password of ${email}, shown this once`)).toBeVisible();
  const password = (await page.getByTestId('one-time-password').locator('code').textContent())?.trim() ?? '';
  expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
  await expect(page.getByTestId('user-row').filter({ hasText: email })).toHaveCount(1);
  return password;
}

async function signedIn(browser: Browser, baseUrl: string, creds: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/login');
  await logIn(page, creds);
  // A one-time password: the console asks for one's own before anything else.
  await page.waitForURL((u) => u.pathname === '/account/password');
  await page.getByLabel('One-time password').fill(creds.password);
  await page.getByLabel('New password', { exact: true }).fill(`${creds.password}-own`);
  await page.getByLabel('New password, again').fill(`${creds.password}-own`);
  await page.getByRole('button', { name: 'Set my password and continue' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  return page;
}

test('admin adds a viewer and an operator; the viewer sees no secret or Resend; the operator shares a case; the link opens, then is revoked', async ({
  page,
  app,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.goto('/users');
  const s = await setUp(page, app.baseUrl);
  const viewer = { email: 'vera.viewer@example.org', password: await addUser(page, 'vera.viewer@example.org', 'viewer') };
  const operator = { email: 'otto.operator@example.org', password: await addUser(page, 'otto.operator@example.org', 'operator') };
  await shot(page, 'users');

  await test.step('the viewer: no Staff menu, no Resend, no secret, the donor masked; /users is refused', async () => {
    const v = await signedIn(browser, app.baseUrl, viewer);
    await expect(v.getByRole('link', { name: 'Staff' })).toHaveCount(0);
    await v.goto(`/webhooks/${s.webhook}/messages/${s.messageId}`);
    await expect(v.getByText('Katherine', { exact: false }).first()).toHaveCount(0);
    await expect(v.getByRole('button', { name: 'Resend' })).toHaveCount(0);
    await v.goto(`/webhooks/${s.webhook}`);
    await expect(v.getByTestId('webhook-status')).toBeVisible();
    await expect(v.getByRole('button', { name: 'Pause deliveries' })).toHaveCount(0);
    await v.goto(`/webhooks/${s.webhook}/messages/${s.messageId}`);
    const html = await v.content();
    expect(html).not.toContain(s.secret);
    expect(html).not.toContain(s.email);
    await v.goto(`/cases/${s.trackingId}`);
    await expect(v.getByTestId('case')).toBeVisible();
    await expect(v.getByRole('button', { name: 'Create share link' })).toHaveCount(0);
    expect(await v.content()).not.toContain(s.email);
    await expect(v.getByText(/k•••@example\.org/).first()).toBeVisible();
    await shot(v, 'viewer-case');
    const refused = await v.goto('/users');
    expect(refused?.status()).toBe(403);
    await expect(v.getByText('Your role does not allow this')).toBeVisible();
    // The 403 page in both themes (a viewer's theme follows the device): its "403" was indigo-600, 2.75:1 on the dark card.
    for (const colorScheme of ['light', 'dark'] as const) {
      await v.emulateMedia({ colorScheme });
      await expectNoSeriousA11yViolations(v, `the 403 page (${colorScheme})`, { only: COLOUR_RULES });
    }
    await v.context().close();
  });

  const o = await signedIn(browser, app.baseUrl, operator);
  let url = '';
  await test.step('the operator sees Resend and shares the case', async () => {
    await o.goto(`/webhooks/${s.webhook}/messages/${s.messageId}`);
    await expect(o.getByRole('button', { name: 'Resend' })).toBeVisible();
    await o.goto(`/cases/${s.trackingId}`);
    await o.getByLabel('Ticket reference').fill('SUP-4242');
    await o.getByRole('button', { name: 'Create share link' }).click();
    url = ((await o.getByTestId('share-url').locator('code').textContent()) ?? '').trim();
    expect(url).toMatch(/\/share\/shr_[A-Za-z0-9]{32}$/);
    await expect(o.getByTestId('share-row').filter({ hasText: 'SUP-4242' })).toHaveCount(1);
    await shot(o, 'operator-share');
  });

  await test.step('the link opens in a fresh context without login, masked; revoked, it answers 410', async () => {
    const anon = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const p = await anon.newPage();
    const res = await p.goto(url.replace(/^https?:\/\/[^/]+/, app.baseUrl));
    expect(res?.status()).toBe(200);
    await expect(p.getByTestId('share-delivery').first()).toBeVisible();
    const html = await p.content();
    expect(html).not.toContain(s.email);
    expect(html).not.toContain(s.secret);
    await expect(p.getByRole('button')).toHaveCount(0);
    await shot(p, 'shared-case');
    await o.getByRole('button', { name: /Revoke/ }).click();
    await expect(o.getByTestId('share-row')).toHaveCount(0);
    const gone = await p.reload();
    expect(gone?.status()).toBe(410);
    await expect(p.getByTestId('share-gone')).toBeVisible();
    await shot(p, 'shared-gone');
    await anon.close();
  });
  await o.context().close();
});
