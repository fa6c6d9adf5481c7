import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, logIn, test, sandboxAuth } from './fixtures';

// The team's daily friction, in Chromium: the Staff and change-password pages at 1280 and 390 px
// with nothing clipped (the header's search, the "Signs in with" select: their text fits the box,
// and scrollWidth ≤ clientWidth); a one-time password leads to the change-password page; a receiver's
// secret changed to one its webhook does not sign with is said before it is saved; a new
// subscription to "Another URL" that is one of this console's receivers offers that receiver (and
// its secret). Screenshots go to the worktree's shots folder when SHOTS_DIR is set, else test-results.

const SHOTS = process.env.SHOTS_DIR ?? path.resolve(import.meta.dirname, '../../test-results/screenshots');

async function shot(page: Page, name: string, width: number): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `team-${name}-${width}.png`), fullPage: true });
}

/** Whether a control shows its text whole: the text (a select's widest option, an input's placeholder) fits inside its padding, and nothing scrolls. */
async function fits(control: Locator): Promise<{ need: number; room: number; scroll: number; client: number }> {
  return control.evaluate((el) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const texts =
      el instanceof HTMLSelectElement ? [...el.options].map((o) => o.text) : [(el as HTMLInputElement).value || (el as HTMLInputElement).placeholder];
    const need = Math.max(...texts.map((t) => ctx.measureText(t).width));
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return { need: Math.ceil(need), room, scroll: el.scrollWidth, client: el.clientWidth };
  });
}

async function expectWhole(control: Locator, what: string): Promise<void> {
  const m = await fits(control);
  expect(m.need, `${what}: text ${m.need}px in ${m.room}px`).toBeLessThanOrEqual(m.room);
  expect(m.scroll, `${what}: scrollWidth vs clientWidth`).toBeLessThanOrEqual(m.client);
}

test('Staff and change-password pages at 1280 and 390 px: nothing clipped; a one-time password is changed first', async ({ page, browser, app }) => {
  test.setTimeout(120_000);
  await page.goto('/users');
  await page.getByLabel('E-mail').fill('new.colleague@example.org');
  await page.getByRole('button', { name: 'Add user' }).click();
  const password = ((await page.getByTestId('one-time-password').locator('code').textContent()) ?? '').trim();
  expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
  await expect(page.getByTestId('user-row').filter({ hasText: 'new.colleague@example.org' }).getByTestId('must-change')).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectWhole(page.getByLabel('Signs in with'), `"Signs in with" at ${width}`);
    await expectWhole(page.getByLabel('Role', { exact: true }), `Role at ${width}`);
    await expectWhole(page.getByRole('searchbox', { name: 'Search' }), `header search at ${width}`);
    await shot(page, 'users', width);
    await page.goto('/account/password');
    await expect(page.getByRole('heading', { name: 'Change your password' })).toBeVisible();
    await expectWhole(page.getByLabel('New password, again'), `new password at ${width}`);
    await shot(page, 'password', width);
    await page.goto('/users');
  }

  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: { cookies: [], origins: [] } });
  const first = await context.newPage();
  await first.goto('/webhooks');
  await logIn(first, { email: 'new.colleague@example.org', password });
  await first.waitForURL((u) => u.pathname === '/account/password' && u.searchParams.get('next') === '/webhooks');
  await expect(first.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  for (const width of [1280, 390]) {
    await first.setViewportSize({ width, height: 900 });
    await shot(first, 'password-first', width);
  }
  await first.goto('/receivers');
  await first.waitForURL((u) => u.pathname === '/account/password', { timeout: 10_000 });
  await first.getByLabel('One-time password').fill(password);
  await first.getByLabel('New password', { exact: true }).fill('colleague-own-1');
  await first.getByLabel('New password, again').fill('colleague-own-2');
  await first.getByRole('button', { name: 'Set my password and continue' }).click();
  await expect(first.getByText('The two new passwords differ.')).toBeVisible();
  await first.getByLabel('One-time password').fill(password);
  await first.getByLabel('New password', { exact: true }).fill('colleague-own-1');
  await first.getByLabel('New password, again').fill('colleague-own-1');
  await first.getByRole('button', { name: 'Set my password and continue' }).click();
  await first.waitForURL((u) => u.pathname === '/receivers');
  // At 390 px the session controls are behind the header's menu button.
  await first.getByRole('button', { name: 'Menu' }).click();
  await expect(first.getByTestId('change-password-link')).toBeVisible();
  await context.close();
});

/** The page is wider than the viewport: a long URL or id that does not wrap. */
const pageScrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test('a secret its webhook does not sign with is said before saving; "Another URL" that is a receiver offers that receiver and its secret', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await (await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Friction receiver', secret } })).json();
  const hook = await req.post(`${app.baseUrl}/v1/webhooks`, { headers: auth, data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], secret } });
  expect(hook.status()).toBe(201);

  await page.goto(`/receivers/${receiver.id}`);
  const form = page.getByRole('form', { name: 'Receiver settings' });
  await form.getByRole('button', { name: 'Generate' }).first().click();
  await form.getByLabel('Second secret (rotation)').fill('');
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('secret-confirm')).toContainText('signs with a secret this receiver does not hold');
  const stored = async () => (await (await req.get(`${app.baseUrl}/api/receivers/${receiver.id}`)).json()).secrets as string[];
  expect(await stored()).toEqual([secret]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, 'receiver-confirm', width);
    expect(await pageScrollsSideways(page), `the receiver page at ${width} px`).toBe(false);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Save anyway' }).click();
  await expect(page.getByText(/^Saved\./)).toBeVisible();
  const changed = await stored();
  expect(changed).toHaveLength(1);
  expect(changed[0]).not.toBe(secret);

  await page.goto('/webhooks/new');
  await page.getByLabel('Another URL').check();
  await page.getByLabel('URL', { exact: true }).fill(receiver.ingestUrl);
  await expect(page.getByTestId('url-is-receiver')).toContainText('Friction receiver');
  await page.getByRole('button', { name: 'Create subscription' }).click();
  await expect(page.getByTestId('url-receiver-confirm')).toContainText('would fail its signature check');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, 'new-subscription-receiver', width);
    expect(await pageScrollsSideways(page), `new subscription at ${width} px`).toBe(false);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Use that receiver (and its secret)' }).first().click();
  await page.waitForURL(/\/webhooks\/ep_/);
  const webhookId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
  const signing = await (await req.get(`${app.baseUrl}/v1/webhooks/${webhookId}/secret`, { headers: auth })).json();
  expect(signing.key).toBe(changed[0]);
});
