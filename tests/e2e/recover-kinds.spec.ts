import { randomBytes } from 'node:crypto';
import { expect, screenshot, test, sandboxAuth } from './fixtures';

// The recover card's third kind in Chromium: a webhook whose console receiver held another secret
// answered 200 (the service counts the message delivered) while the signature failed. Its page
// counts it under "Delivered, failed at the receiver" beside the other two kinds; once the
// receiver has the webhook's secret, one confirmed run re-sends it and the receiver verifies it;
// the audit log shows the run.

test('webhook page → recover messages: the three kinds side by side → re-send a delivered message that failed verification → audit log', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  const req = page.request;
  const base = app.baseUrl;
  const S = `whsec_${randomBytes(32).toString('base64')}`;
  let W = '';
  let receiverId = '';
  let auth: Record<string, string> = {};
  await test.step('a message delivered to a receiver that holds another secret', async () => {
    auth = await sandboxAuth(req, base);
    const R = await (
      await req.post(`${base}/api/receivers`, { data: { name: 'Wrong secret receiver', secret: `whsec_${randomBytes(32).toString('base64')}` } })
    ).json();
    receiverId = R.id;
    W = (
      await (
        await req.post(`${base}/v1/webhooks`, {
          headers: auth,
          data: { url: R.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Re-send me', secret: S },
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
    const g = await req.post(`${base}/v1/grants`, {
      headers: { ...auth, 'x-service-api-key': key },
      data: { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' },
    });
    expect(g.status()).toBe(201);
    await expect
      .poll(async () => ((await (await req.get(`${base}/v1/webhooks/${W}/messages?status=success`, { headers: auth })).json()).results as unknown[]).length, {
        timeout: 20_000,
      })
      .toBe(1);
  });

  await test.step('the card counts each kind of the window', async () => {
    await page.goto(`/webhooks/${W}`);
    await page.getByTestId('recover-open').click();
    const panel = page.getByTestId('recover-panel');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await expect(panel.getByTestId('recover-failed-count')).toHaveAttribute('data-count', '0');
    await expect(panel.getByTestId('recover-retry-count')).toHaveAttribute('data-count', '0');
    await expect(panel.getByTestId('recover-resend-count')).toHaveAttribute('data-count', '1');
    await expect(panel.getByTestId('recover-resend')).toContainText('1 delivered message failed at the receiver.');
    await expect(panel.getByTestId('recover-resend')).toContainText('Receiver: Wrong secret receiver.');
    await screenshot(page, 'recover-kinds');
  });

  await test.step('the receiver gets the webhook secret; a confirmed run re-sends the message and the receiver verifies it', async () => {
    expect((await req.patch(`${base}/api/receivers/${receiverId}`, { data: { secrets: [S] } })).status()).toBe(200);
    const resend = page.getByTestId('recover-resend');
    await resend.getByRole('button', { name: 'Re-send 1 delivered' }).click();
    await expect(resend.getByRole('group', { name: /Confirm/ })).toContainText('Re-send 1 message the service counts as delivered, once each?');
    await resend.getByRole('button', { name: 'Confirm' }).click();
    await expect(resend.getByTestId('recover-resend-result')).toContainText('Done: 1 of 1 re-sent · 1 answered 2xx · 1 verified by the receiver · 0 failed', {
      timeout: 30_000,
    });
    await screenshot(page, 'recover-kinds-resent');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(resend).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
        message: 'no sideways scrolling at 390 px',
      })
      .toBeLessThanOrEqual(0);
    await screenshot(page, 'recover-kinds-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('recover-panel').getByRole('button', { name: 'Count again' }).click();
    await expect(page.getByTestId('recover-resend-count')).toHaveAttribute('data-count', '0');
  });

  await test.step('the audit log shows the run', async () => {
    await page.goto('/audit');
    await page.getByLabel('Target id').fill(W);
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByTestId('audit-row').filter({ hasText: 'webhook.resend-delivered' });
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('ok');
    // Later specs share this app: its grants should not reach this webhook.
    expect((await req.patch(`${base}/v1/webhooks/${W}`, { headers: auth, data: { disabled: true } })).status()).toBe(200);
  });
});
