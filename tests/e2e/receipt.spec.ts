import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, expectFitsWidth, screenshot, test, sandboxAuth } from './fixtures';

// A receipt whose signature did not verify (the receiver holds another secret than the webhook's),
// in Chromium: its page fits 390 px (the body badge wraps, the fingerprint table's headers stay
// apart), and the receiver's page and settings form say which webhook delivering there signs with
// a secret the receiver does not hold, by fingerprints.

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const fp = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

test('a bad-signature receipt at 1280 and 390 px; the receiver warns of the webhook it cannot verify', async ({ page, app }) => {
  const [S, OTHER] = [newSecret(), newSecret()];
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  const receiver = await json(await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Receipt: holds another secret', secret: OTHER } }), 201);
  const webhook = await json(
    await req.post(`${app.baseUrl}/v1/webhooks`, {
      headers: auth,
      data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Receipt: donor CRM', secret: S },
    }),
    201,
  );
  await json(await req.post(`${app.baseUrl}/v1/webhooks/${webhook.id}/test`, { headers: auth }), 200);
  let receiptId = 0;
  await expect
    .poll(async () => (receiptId = (await json(await req.get(`${app.baseUrl}/api/receivers/${receiver.id}/receipts`), 200)).results[0]?.id ?? 0), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);

  await test.step('the receipt page at 1280 px: forensics with the headers of the fingerprint table apart', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/receipts/${receiptId}`);
    await expect(page.getByTestId('forensics')).toBeVisible();
    await expect(page.getByTestId('forensics').locator('dt:text-is("Sent by") + dd')).toHaveText('Receipt: donor CRM');
    await screenshot(page, 'receipt');
  });

  await test.step('390 px wide: nothing scrolls sideways, and “Fingerprint” and “Signed this request” do not touch', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/receipts/${receiptId}`);
    await expect(page.getByTestId('forensics')).toBeVisible();
    await expectFitsWidth(page, 390, 'the receipt page');
    const heads = page.getByTestId('fingerprints').locator('th');
    /** Where the header's words are (not its cell, which may be wider). */
    const text = async (i: number) =>
      heads.nth(i).evaluate((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
    const [a, b] = [await text(1), await text(2)];
    expect(b.left - a.right, `a gap between the words (${JSON.stringify({ a, b })})`).toBeGreaterThanOrEqual(8);
    await screenshot(page, 'mobile-receipt');
  });

  await test.step('the receiver page names the webhook whose secret it does not hold; saving the secrets warns again', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/receivers/${receiver.id}`);
    const line = page.getByTestId('delivering-webhooks').getByTestId('secret-mismatch');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(`fingerprint ${fp(S)}… vs ${fp(OTHER)}…`);
    await page.getByRole('button', { name: 'Save settings' }).click();
    const warnings = page.getByTestId('secret-warnings');
    await expect(warnings).toContainText('Webhook “Receipt: donor CRM”');
    await expect(warnings).toContainText(`${fp(S)}… vs ${fp(OTHER)}…`);
    await screenshot(page, 'receiver-secret-warning');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page, 390, 'the receiver page with its warning');
    await screenshot(page, 'mobile-receiver-secret-warning');
  });
});
