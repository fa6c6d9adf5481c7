import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, screenshot, test, sandboxAuth } from './fixtures';

// Operations in Chromium: a webhook whose console receiver answered 500 until every attempt was
// used, found failing on the health home, then recovered from its page (preview count, confirm, progress until done), its timeline
// exported as CSV, and both actions found in the audit log.

test('health home → webhook page → recover failed messages (preview, confirm, progress) → export CSV → audit log', async ({ page, app }) => {
  test.setTimeout(180_000);
  const req = page.request;
  const base = app.baseUrl;
  let W = '';
  await test.step('a webhook with two failed messages (its receiver answered 500)', async () => {
    await page.goto('/webhooks');
    const auth = await sandboxAuth(req, base);
    const S = `whsec_${randomBytes(32).toString('base64')}`;
    const R = await (await req.post(`${base}/api/receivers`, { data: { name: 'Recover receiver', secret: S } })).json();
    expect((await req.patch(`${base}/api/receivers/${R.id}`, { data: { responseStatus: 500 } })).status()).toBe(200);
    W = (
      await (
        await req.post(`${base}/v1/webhooks`, {
          headers: auth,
          data: { url: R.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Recover me', secret: S },
        })
      ).json()
    ).id;
    const np = await (
      await req.post(`${base}/v1/nonprofits`, {
        headers: auth,
        data: { ein: `48${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, user: { email: 'ops@example.org' } },
      })
    ).json();
    const c = await (await req.post(`${base}/v1/connects?nonprofit=${np.id}`, { headers: auth })).json();
    const key = (await (await req.get(`${base}/v1/connects/${c.id}`, { headers: auth })).json()).apiKey;
    for (const i of [1, 2]) {
      const g = await req.post(`${base}/v1/grants`, {
        headers: { ...auth, 'x-service-api-key': key },
        data: { amount: 1000 * i, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Byron', email: `ada${i}@example.org` },
      });
      expect(g.status()).toBe(201);
    }
    await expect
      .poll(async () => ((await (await req.get(`${base}/v1/webhooks/${W}/messages?status=failed`, { headers: auth })).json()).results as unknown[]).length, {
        timeout: 45_000,
      })
      .toBe(2);
    // From now on it answers 200, a little slowly, so the progress can be seen.
    expect((await req.patch(`${base}/api/receivers/${R.id}`, { data: { responseStatus: 200, responseDelayMs: 800 } })).status()).toBe(200);
  });

  await test.step('the health home lists it as failing; its row leads to its page', async () => {
    await page.goto('/');
    const row = page.locator(`[data-testid="health-row"][data-webhook-id="${W}"]`);
    await expect(row).toHaveAttribute('data-level', 'failing', { timeout: 15_000 });
    await row
      .getByRole('link', { name: /Recover me/ })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${W}$`));
  });

  await test.step('recover: preview the count, confirm, watch it finish', async () => {
    await page.getByTestId('recover-open').click();
    const panel = page.getByTestId('recover-panel');
    await expect(panel.getByLabel('Since')).not.toHaveValue('');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await expect(panel.getByTestId('recover-preview')).toContainText('2 failed messages will be re-sent.');
    const failed = panel.getByTestId('recover-failed');
    await failed.getByRole('button', { name: 'Re-send 2' }).click();
    await expect(failed).toContainText('Re-send 2 failed messages to this webhook now, once each?');
    await failed.getByRole('button', { name: 'Confirm' }).click();
    // The other two kinds counted the same window: nothing waits for a retry, nothing failed at the receiver.
    await expect(panel.getByTestId('recover-retry-count')).toHaveAttribute('data-count', '0');
    await expect(panel.getByTestId('recover-resend-count')).toHaveAttribute('data-count', '0');
    const progress = panel.getByTestId('recover-progress');
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(progress).toContainText('Done: 2 of 2 re-sent · 2 delivered · 0 failed again');
    await screenshot(page, 'recover-done');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(progress).toBeVisible();
    // The health card's charts follow the new width a frame or two later (ResizeObserver), as on the health spec.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
        message: 'no sideways scrolling at 390 px',
      })
      .toBeLessThanOrEqual(0);
    await screenshot(page, 'recover-done-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('export the timeline as CSV', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByTestId('timeline-export').getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${W}-.+\\.csv$`));
    const rows = parse(fs.readFileSync((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.status)).toEqual(['success', 'success']);
    expect(rows.every((r) => r.donor === '[redacted]')).toBe(true);
  });

  await test.step('the audit log shows the recover and the export', async () => {
    await page.goto('/webhooks');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await page.getByLabel('Target id').fill(W);
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByTestId('audit-row');
    await expect(rows.filter({ hasText: 'webhook.recover' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'export' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'webhook.recover' })).toContainText('ok');
    await screenshot(page, 'audit');
  });
});
