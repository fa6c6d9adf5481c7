import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshot, test, sandboxAuth } from './fixtures';

// Keyboard first (issue 41), in Chromium with the keyboard only: the skip link is the first Tab
// stop and lands on the page; "/" jumps to the search from anywhere but a text field; focus comes
// back to what opened the Disable confirmation, the Recover panel and "Send test event"; focus is
// drawn as a 2 px ring outside a primary button; the live status is "Live" (not the time) and
// pauses; the charts are named images with no Tab stop inside.

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

async function aWebhook(page: Page, baseUrl: string): Promise<string> {
  const req = page.request;
  const auth = await sandboxAuth(req, baseUrl);
  const receiver = await json(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Keyboard: answers 204' } }), 201);
  await json(await req.patch(`${baseUrl}/api/receivers/${receiver.id}`, { data: { responseStatus: 204, responseBody: '' } }), 200);
  const webhook = await json(
    await req.post(`${baseUrl}/v1/webhooks`, { headers: auth, data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Keyboard' } }),
    201,
  );
  return webhook.id;
}

const focused = (page: Page) =>
  page.evaluate(() => ({
    id: document.activeElement?.id ?? '',
    text: (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '',
    tag: document.activeElement?.tagName ?? '',
  }));

test('the skip link is the first Tab stop and lands on the page; "/" focuses the search outside text fields', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await screenshot(page, 'keyboard-skip-link');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await focused(page)).id).toBe('content');
  // The next Tab stop is inside the page, not in the header.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main') && !document.activeElement?.closest('header'))).toBe(true);

  const search = page.getByRole('searchbox', { name: 'Search' });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue(''); // the "/" is not typed
  // In a text field "/" is typed as usual.
  await page.keyboard.type('data.amount/100');
  await expect(search).toHaveValue('data.amount/100');
});

test('focus returns to what opened the Disable confirmation, the Recover panel and Send test event', async ({ page, app }) => {
  const id = await aWebhook(page, app.baseUrl);
  await page.goto(`/webhooks/${id}`);
  const actions = page.getByTestId('webhook-actions');
  const disable = actions.getByRole('button', { name: 'Disable' });

  await test.step('Disable: Escape and Cancel give focus back to the button; confirming moves it to Enable', async () => {
    await disable.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('disable-confirm').getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(disable).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('disable-confirm').getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(disable).toBeFocused();
    await page.keyboard.press('Enter');
    await page.getByTestId('disable-confirm').getByRole('button', { name: 'Disable' }).focus();
    await page.keyboard.press('Enter');
    const enable = actions.getByRole('button', { name: 'Enable' });
    await expect(enable).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(disable).toBeFocused();
  });

  await test.step('Recover: opening focuses its first field; Escape and Close give focus back', async () => {
    const open = page.getByTestId('recover-open');
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#recover-since')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(open).toBeFocused();
    await page.keyboard.press('Enter');
    await page.getByTestId('recover-panel').locator('xpath=ancestor::section[1]').getByRole('button', { name: 'Close' }).click();
    await expect(open).toBeFocused();
  });

  await test.step('Send test event keeps focus while it sends and after; its focus ring is a 2 px ring outside it', async () => {
    const send = actions.getByRole('button', { name: /Send test event|Sending…/ });
    await send.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('action-feedback')).toBeVisible();
    await expect(send).toBeFocused();
    await expect(send).toHaveAccessibleName('Send test event');
    const ring = await send.evaluate((el) => {
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: s.outlineWidth, offset: s.outlineOffset, color: s.outlineColor, text: s.color };
    });
    expect(ring).toMatchObject({ style: 'solid', width: '2px', offset: '2px' });
    expect(ring.color).not.toBe(ring.text); // not the button's white text colour
    await screenshot(page, 'keyboard-focus-primary');
  });
});

test('the live status announces its state only and pauses; the charts are named images without Tab stops', async ({ page, app }) => {
  const id = await aWebhook(page, app.baseUrl);
  await page.goto(`/webhooks/${id}`);
  const live = page.getByTestId('live-indicator');
  await expect(live.getByRole('status')).toHaveText('Live');
  await expect(live).toContainText(/last at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);

  let polls = 0;
  page.on('request', (r) => {
    if (r.url().includes(`/api/webhooks/${id}/timeline`)) polls++;
  });
  await expect.poll(() => polls, { message: 'the timeline polls while live' }).toBeGreaterThan(0);
  await live.getByRole('button', { name: 'Pause live updates' }).click();
  await expect(live).toHaveAttribute('data-state', 'paused');
  await expect(live.getByRole('status')).toHaveText('Paused');
  await expect(page.getByTestId('health-live').getByRole('status')).toHaveText('Paused');
  const atPause = polls;
  await page.waitForTimeout(2500); // more than two polling periods of the timeline
  expect(polls).toBe(atPause);
  await live.getByRole('button', { name: 'Resume live updates' }).click();
  await expect(live.getByRole('status')).toHaveText('Live');
  await expect.poll(() => polls).toBeGreaterThan(atPause);

  for (const chart of ['chart-outcomes', 'chart-latency']) {
    const figure = page.getByTestId(chart);
    await expect(figure.getByRole('img')).toHaveAttribute('aria-label', /over 24h/);
    expect(await figure.evaluate((el) => el.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length)).toBe(0);
  }
});
