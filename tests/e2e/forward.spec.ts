import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { verifyWith } from '../helpers/receiver';
import { expect, expectFitsWidth, screenshot, test, sandboxAuth } from './fixtures';

// Forwarding a receipt from its page, in Chromium: a delivered test event's receipt is forwarded
// re-signed to a loopback server through the form, the forward shows with its reply; the page fits
// 390 px; the case page lists the forward. Then an attempt's "Copy as cURL" on the message page,
// read back from the clipboard and run by bash: the server gets the payload's bytes, signed so
// that they verify under the webhook's secret.

test('forward a receipt from its page at 1280 and 390 px; the case lists the forward', async ({ page, app }) => {
  const hits: string[] = [];
  const requests: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push(req.url ?? '');
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, handledBy: 'dev laptop' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  try {
    const req = page.request;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const auth = await sandboxAuth(req, app.baseUrl);
    const receiver = await (await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Forward: donor CRM', secret } })).json();
    const webhook = await (
      await req.post(`${app.baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Forward: donor CRM', secret },
      })
    ).json();
    expect((await req.post(`${app.baseUrl}/v1/webhooks/${webhook.id}/test`, { headers: auth })).status()).toBe(200);
    let receipt = { id: 0, messageId: '' };
    await expect
      .poll(async () => (receipt = (await (await req.get(`${app.baseUrl}/api/receivers/${receiver.id}/receipts`)).json()).results[0] ?? receipt).id, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/receipts/${receipt.id}`);
    await expect(page.getByTestId('copy-curl')).toBeVisible();
    const form = page.getByTestId('forward-form');
    await form.getByLabel('Send to').fill(target);
    await form.getByLabel('How').selectOption('resign');
    await form.getByRole('button', { name: 'Forward' }).click();
    const forward = page.getByTestId('forward');
    await expect(forward).toHaveCount(1);
    await expect(forward).toHaveAttribute('data-status', '200');
    await expect(forward).toContainText('re-signed');
    await expect(forward).toContainText(target);
    expect(hits).toEqual(['/webhooks']);
    await forward.locator('summary').click();
    await expect(forward).toContainText('dev laptop');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'receipt-forward');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('forward')).toHaveCount(1);
    await page.getByTestId('forward').locator('summary').click();
    await expectFitsWidth(page, 390, 'the receipt page with a forward');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'mobile-receipt-forward');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/cases/${encodeURIComponent(receipt.messageId)}`);
    await expect(page.getByTestId('case-forward')).toHaveCount(1);
    await expect(page.getByTestId('case-forward')).toContainText(target);
    await screenshot(page, 'case-forward');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/webhooks/${webhook.id}/messages/${receipt.messageId}`);
    await page.getByTestId('attempt-curl').first().getByRole('button', { name: 'Copy as cURL' }).click();
    await expect(page.getByTestId('attempt-curl').first()).toContainText('Copied');
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toContain(receiver.ingestUrl);
    await promisify(execFile)('bash', ['-c', command.replace(receiver.ingestUrl, target)], { timeout: 20_000 });
    const sent = requests[requests.length - 1];
    const payload = (await (await req.get(`${app.baseUrl}/v1/webhooks/${webhook.id}/messages/${receipt.messageId}`, { headers: auth })).json()).payload;
    expect(sent.body).toBe(JSON.stringify(payload));
    expect(sent.headers['webhook-id']).toBe(receipt.messageId);
    expect(verifyWith(secret, sent.body, sent.headers, 'webhook')).toBe(true);
    expect(verifyWith(secret, sent.body, sent.headers, 'svix')).toBe(true);
    await screenshot(page, 'message-attempt-curl');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
