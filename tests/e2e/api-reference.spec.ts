import fs from 'node:fs';
import path from 'node:path';
import { SCREENSHOTS, expect, test } from './fixtures';

// The API reference page in Chromium: linked from the console, rendered from /openapi.json by the
// bundled Scalar reference, without a single request outside this app.

test('the console links the API reference, which renders the document from this app alone', async ({ page, anonPage, app }) => {
  await page.goto('/webhooks');
  await expect(page.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/reference');

  const outside: string[] = [];
  anonPage.on('request', (req) => {
    const url = new URL(req.url());
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return;
    if (url.origin !== app.baseUrl) outside.push(req.url());
  });
  // Not until 'load': that waits for the 4 MB bundle to run, which took over 30 s beside CI's two other
  // passes (load ~25). The heading is what shows the page rendered; 60 s for it, for the same reason.
  await anonPage.goto('/reference', { waitUntil: 'commit' });
  await expect(anonPage.getByRole('heading', { name: 'Giving Connect API', level: 1 })).toBeVisible({ timeout: 60_000 });
  const sidebar = anonPage.getByRole('complementary');
  for (const tag of ['Auth', 'Nonprofits', 'Connects', 'Grants', 'Webhooks', 'Messages', 'Events'])
    await expect(sidebar.getByRole('link', { name: tag, exact: true })).toBeVisible();
  await sidebar.getByRole('button', { name: 'Open Group - Grants' }).click();
  await expect(sidebar.getByRole('link', { name: /List the funds a grant may come from/ })).toBeVisible();
  await sidebar.getByRole('link', { name: /^Get a grant/ }).click();
  const operation = anonPage.getByRole('main');
  await expect(operation.getByRole('heading', { name: 'Get a grant' })).toBeVisible();
  await expect(operation.getByText('workflowSessionId').first()).toBeVisible();
  await anonPage.waitForLoadState('networkidle');
  expect(outside, 'requests outside this app').toEqual([]);

  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await anonPage.setViewportSize({ width: 1440, height: 900 });
  await anonPage.screenshot({ path: path.join(SCREENSHOTS, 'api-reference.png') });
  await anonPage.setViewportSize({ width: 390, height: 844 });
  await expect(anonPage.getByRole('heading', { name: 'Giving Connect API', level: 1 })).toBeVisible();
  await anonPage.screenshot({ path: path.join(SCREENSHOTS, 'api-reference-390.png') });
});
