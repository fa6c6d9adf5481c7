import { startApp, type TApp } from '../helpers/app';
import { call, token } from '../helpers/http';
import { expect, expectFitsWidth, screenshot, signedInPage, test } from './fixtures';

// Alerts in the browser: a rule made through the /alerts form (its secret shown once), a webhook
// disabled through the API, and the banner on every console page while the alert fires, linking
// to it; re-enabled, the banner goes. An app of its own, evaluating every 200 ms, so the banner
// never shows in the other specs' pages.

let app: TApp;
test.beforeAll(async () => {
  app = await startApp({ env: { ALERT_EVAL_MS: '200' } });
});
test.afterAll(async () => {
  await app?.destroy();
});

test('a firing alert shows a banner on every page, linking to it; it goes when the alert clears', async ({ browser }) => {
  const page = await signedInPage(browser, app.baseUrl);
  const receiver = await page.request.post('/api/receivers', { data: { name: 'Alert inbox' } });
  const slug = (await receiver.json()).slug as string;

  await page.goto('/alerts');
  await expect(page.getByTestId('alert-banner')).toHaveCount(0);
  // The page states the settings in force: this app evaluates every 200 ms and allows loopback targets.
  await expect(page.getByText('Rules checked by the worker every 200 ms against the API.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Public addresses, or loopback \(this instance has DELIVERY_ALLOW_PRIVATE=true\)/)).toBeVisible();
  await expect(page.getByText('Public addresses only', { exact: false })).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Create an alert rule' });
  await form.getByLabel('Name').fill('Any webhook disabled');
  await form.getByLabel('When').selectOption('webhook_disabled');
  // A refused target (an e-mail address, and this app has no SMTP server) is said once, at its field.
  await form.getByLabel('Send to', { exact: true }).fill('mailto:ops@example.org');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByText('this console has no SMTP server', { exact: false })).toHaveCount(1);
  await expect(form.getByLabel('Send to', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(form.getByLabel('Name'), 'the form keeps what was typed').toHaveValue('Any webhook disabled');
  await form.getByLabel('When').selectOption('webhook_disabled');
  await form.getByLabel('Send to', { exact: true }).fill(`${app.baseUrl}/ingest/${slug}`);
  await page.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByText('Rule created')).toBeVisible();
  await expect(page.getByText(/^whsec_/)).toBeVisible();
  await expect(page.getByTestId('alert-rule-row')).toContainText('Any webhook disabled');

  const tok = await token(app);
  const webhook = await call(app, 'POST', '/v1/webhooks', {
    token: tok,
    body: { url: `${app.baseUrl}/ingest/${slug}`, eventTypes: ['grant.succeeded'], description: 'Acme grants' },
  });
  await call(app, 'PATCH', `/v1/webhooks/${webhook.body.id}`, { token: tok, body: { disabled: true } });

  await page.goto('/webhooks');
  const banner = page.getByTestId('alert-banner');
  await expect(banner, 'the banner polls while the page is open').toContainText('An alert is firing', { timeout: 20_000 });
  await page.goto('/receivers');
  await expect(banner, 'on every console page').toBeVisible();
  // The webhook is named by its description and linked to its page, not named by its id.
  await expect(banner).toContainText('“Any webhook disabled” for Acme grants');
  await expect(banner.getByTestId('alert-banner-subject')).toHaveAttribute('href', `/webhooks/${webhook.body.id}`);
  await expect(banner).not.toContainText(webhook.body.id);
  await screenshot(page, 'alert-banner');
  await banner.getByRole('link', { name: 'See it' }).click();
  await page.waitForURL(/\/alerts#alert-/);
  const row = page.locator('[data-testid="alert-row"][data-state="firing"]');
  await expect(row.getByTestId('alert-subject')).toHaveText('Acme grants');
  await expect(row.getByTestId('alert-subject')).toHaveAttribute('href', `/webhooks/${webhook.body.id}`);
  await expect(row).toContainText('disabled through the API');
  await screenshot(page, 'alerts');
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone an alert is a card (issue 41): its quiet actions on screen, nothing scrolls inside the table or the page.
  expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe('block');
  const snooze = row.getByRole('button', { name: 'Snooze' });
  await expect(snooze).toBeVisible();
  expect((await snooze.boundingBox())!.x + (await snooze.boundingBox())!.width, 'Snooze is on screen').toBeLessThanOrEqual(390);
  await expect(page.getByTestId('alert-banner'), 'the banner is one line on a phone').toHaveText('An alert is firing. See it', { useInnerText: true });
  await expectFitsWidth(page, 390);
  await screenshot(page, 'alerts-390');

  await call(app, 'PATCH', `/v1/webhooks/${webhook.body.id}`, { token: tok, body: { disabled: false } });
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator('[data-testid="alert-row"][data-state="cleared"]').count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await page.goto('/webhooks');
  await expect(banner).toHaveCount(0);
});
