import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectFitsWidth, test, sandboxAuth } from './fixtures';

// The console on a phone (issue 41 item 4), in Chromium: at 390 px the sticky header is one row of
// at most 80 px, its navigation and session controls behind a menu button (a disclosure: Escape
// and a click outside close it and give the focus back; following a link closes it; without
// JavaScript the navigation simply shows); the Staff table is a card per user (that nothing scrolls
// sideways at 320 or 390 px on any console page is checked by the sweep of tests/e2e/a11y.spec.ts,
// which loads every page); the live statuses are one line; the charts'
// legends show the latest values before any hover. Screenshots into SHOTS_DIR when set.

const SHOTS = process.env.SHOTS_DIR;
const HEADER_MAX = 80;

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

async function shot(page: Page, name: string, width: number): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

type TSeeded = { webhookId: string; messageId: string; receiverId: string; receiptId: number; cid: string; ein: string };

/** A receiver, a webhook delivering a test event to it (one receipt), a nonprofit with a Connect, an alert rule that is off. */
async function seed(page: Page, baseUrl: string): Promise<TSeeded> {
  const req = page.request;
  const auth = await sandboxAuth(req, baseUrl);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await json(
    await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Mobile: a receiver with a rather long name to wrap', secret } }),
    201,
  );
  const webhook = await json(
    await req.post(`${baseUrl}/v1/webhooks`, {
      headers: auth,
      data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Mobile', secret },
    }),
    201,
  );
  const message = await json(await req.post(`${baseUrl}/v1/webhooks/${webhook.id}/test`, { headers: auth }), 200);
  let receiptId = 0;
  await expect
    .poll(async () => (receiptId = (await json(await req.get(`${baseUrl}/api/receivers/${receiver.id}/receipts`), 200)).results[0]?.id ?? 0), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  const ein = `53${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const nonprofit = await json(
    await req.post(`${baseUrl}/v1/nonprofits`, {
      headers: auth,
      data: { ein, name: 'Mobile Friends of the Very Long Named Public Library', user: { email: 'np@example.org' } },
    }),
    201,
  );
  const connect = await json(await req.post(`${baseUrl}/v1/connects?nonprofit=${nonprofit.id}`, { headers: auth, data: { name: 'Mobile donations' } }), 201);
  // Switched off: a rule of this shared app must never fire (its banner would show on the other specs' pages).
  await json(
    await req.post(`${baseUrl}/api/alert-rules`, {
      data: {
        name: 'Mobile: this webhook keeps failing',
        kind: 'failure_streak',
        threshold: 1000,
        webhookId: webhook.id,
        targetUrl: receiver.ingestUrl,
        enabled: false,
      },
    }),
    201,
  );
  return { webhookId: webhook.id, messageId: message.id, receiverId: receiver.id, receiptId, cid: connect.id, ein };
}

let seeded: TSeeded;
test.beforeEach(async ({ page, app }) => {
  seeded ??= await seed(page, app.baseUrl);
});

test('at 390 px the header is one row; the menu opens, closes on Escape (focus back) and on a link; search stays in the bar', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const p of ['/', '/webhooks', `/webhooks/${seeded.webhookId}`, '/users', '/alerts']) {
    await page.goto(p);
    const height = await page.locator('header[data-menu]').evaluate((h) => h.getBoundingClientRect().height);
    expect(height, `the header of ${p} at 390 px`).toBeLessThanOrEqual(HEADER_MAX);
  }
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible();
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeHidden();

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Receivers' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  for (const link of await nav.getByRole('link').all()) {
    const box = (await link.boundingBox())!;
    expect(box.x + box.width, `the nav link ${await link.innerText()} is on screen`).toBeLessThanOrEqual(390);
    expect(box.height, 'a target of 24 px or more').toBeGreaterThanOrEqual(24);
  }
  await shot(page, 'menu-open', 390);
  // The next Tab stop after the button is the first link it opened.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Health');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await expect(nav).toBeHidden();

  // A click outside the header closes it.
  await menu.click();
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await menu.click();
  await nav.getByRole('link', { name: 'Receivers' }).click();
  await page.waitForURL(/\/receivers$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();

  // "/" still reaches the search with the menu closed.
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();

  // From lg on there is no menu: the navigation is in the bar.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toBeVisible();
});

test('without JavaScript the navigation shows at 390 px (no menu button)', async ({ browser, app, staffState }) => {
  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: staffState, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/webhooks');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Problems' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  await expectFitsWidth(page, 390);
  await context.close();
});

test('the Staff and alert-rule tables are a card per row at 390 px, with every control on screen', async ({ page }) => {
  for (const [p, rowId, control] of [
    ['/users', 'user-row', 'Deactivate'],
    ['/alerts', 'alert-rule-row', 'Delete'],
  ] as const) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(p);
    const row = page.getByTestId(rowId).first();
    expect(await row.evaluate((r) => getComputedStyle(r).display), `${p}: a row is a card`).toBe('block');
    const button = row.getByRole('button', { name: new RegExp(`^${control}`) }).first();
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, `${p}: "${control}" is on screen`).toBeLessThanOrEqual(390);
    // Nothing scrolls inside the table either.
    expect(
      await page
        .locator('table')
        .first()
        .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0);
    await expectFitsWidth(page, 390);
    await shot(page, p.slice(1), 390);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await row.evaluate((r) => getComputedStyle(r).display), `${p}: a table row at 1280 px`).toBe('table-row');
  }
});

test('at 390 px the live statuses are one line, and the charts show the latest values before a hover', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/webhooks/${seeded.webhookId}`);
  const live = page.getByTestId('live-indicator');
  await expect(live).toContainText(/Live, last at \d\d:\d\d:\d\d UTC/, { useInnerText: true });
  await expect(live.getByRole('button', { name: 'Pause live updates' })).toBeVisible();
  // Never a bare "Pause" on a phone, beside the webhook's own Pause deliveries.
  // (What shows: the button's own text; " updates" is for a screen reader there.)
  const shown = await live.getByRole('button', { name: 'Pause live updates' }).evaluate((b) =>
    [...b.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent)
      .join(''),
  );
  expect(shown).toBe('Pause live');
  const health = page.getByTestId('health-live');
  await expect(health).toContainText(/last at/);
  for (const [what, status] of [
    ['timeline', live],
    ['health', health],
  ] as const) {
    const lines = await status.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
    expect(lines, `the ${what} live status is one line`).toBe(1);
  }
  const legend = page.getByTestId('chart-outcomes').locator('.u-legend');
  await expect(legend).toBeVisible();
  // The test event delivered: its bucket's count, not "—", with nothing hovered.
  await expect(legend.locator('.u-series').filter({ hasText: 'success' }).locator('.u-value')).toHaveText('1');
  await expect(page.getByTestId('chart-latency').locator('.u-legend .u-series').filter({ hasText: 'p50' }).locator('.u-value')).toHaveText(/\d+ ms/);
  await shot(page, 'timeline', 390);
});
