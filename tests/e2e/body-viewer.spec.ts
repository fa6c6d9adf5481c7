import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectFitsWidth, screenshot, test, sandboxAuth } from './fixtures';

// The body viewer in Chromium, on a receipt: the test event's body folds and unfolds, a key copies
// its path and "Copy body" the bytes received (read back from the clipboard); the receipt says it
// is byte for byte what the service sent. A second request with the same message id but another
// body (a proxy that rewrote it) lists and marks each difference.

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('a receipt body: fold, unfold, copy a path and the body; sent vs received, the same and then different', async ({ page, app }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await json(await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Body viewer: donor CRM', secret } }), 201);
  const webhook = await json(
    await req.post(`${app.baseUrl}/v1/webhooks`, {
      headers: auth,
      data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Body viewer', secret },
    }),
    201,
  );
  const message = await json(await req.post(`${app.baseUrl}/v1/webhooks/${webhook.id}/test`, { headers: auth }), 200);
  const receipts = async () =>
    (await json(await req.get(`${app.baseUrl}/api/receivers/${receiver.id}/receipts`), 200)).results as { id: number; bodyText: string | null }[];
  await expect.poll(async () => (await receipts()).length, { timeout: 20_000 }).toBe(1);
  const [first] = await receipts();

  await page.goto(`/receipts/${first.id}`);
  const compare = page.getByTestId('sent-vs-received');
  await expect(compare).toHaveAttribute('data-verdict', 'identical');
  await expect(compare.getByTestId('sent-vs-received-verdict')).toHaveText('Byte for byte the same as the service sent.');
  const viewer = compare.getByTestId('body-viewer');
  const amountKey = viewer.getByRole('button', { name: 'amount: copy the path data.amount' });

  await test.step('fold all, unfold one, expand all', async () => {
    await expect(amountKey).toBeVisible();
    await viewer.getByRole('button', { name: 'Collapse all' }).click();
    const data = viewer.getByRole('button', { name: /^Unfold data \(\d+ keys\)$/ });
    await expect(data).toHaveAttribute('aria-expanded', 'false');
    await expect(amountKey).toBeHidden();
    await data.click();
    await expect(viewer.getByRole('button', { name: /^Fold data \(/ })).toHaveAttribute('aria-expanded', 'true');
    await expect(amountKey).toBeVisible();
    await viewer.getByRole('button', { name: 'Collapse all' }).click();
    await viewer.getByRole('button', { name: 'Expand all' }).click();
    await expect(amountKey).toBeVisible();
  });

  await test.step('a key copies its path; "Copy body" the bytes received', async () => {
    await amountKey.click();
    await expect(viewer.getByTestId('body-viewer-status')).toHaveText('Copied the path data.amount');
    expect(await clipboard(page)).toBe('data.amount');
    await viewer.getByRole('button', { name: 'Copy body' }).click();
    await expect(viewer.getByTestId('body-viewer-status')).toHaveText('Copied the body');
    expect(await clipboard(page)).toBe(first.bodyText);
    await viewer.getByRole('button', { name: 'Raw' }).click();
    await expect(viewer.getByRole('region', { name: 'Body received' }).locator('pre')).toHaveText(first.bodyText!);
    await viewer.getByRole('button', { name: 'Formatted' }).click();
    await expect(amountKey).toBeVisible();
  });

  await test.step('a rewritten body with the same message id: each difference by its path, marked on both sides', async () => {
    const sent = JSON.parse(first.bodyText!);
    const rewritten = { ...sent, data: { ...sent.data, amount: 1, rewrittenBy: 'proxy' } };
    delete rewritten.data.note;
    const res = await req.post(receiver.ingestUrl, {
      headers: { 'content-type': 'application/json', 'webhook-id': message.id },
      data: JSON.stringify(rewritten),
    });
    expect(res.status()).toBeLessThan(500);
    await expect.poll(async () => (await receipts()).length, { timeout: 10_000 }).toBe(2);
    const second = (await receipts()).find((r) => r.id !== first.id)!;
    await page.goto(`/receipts/${second.id}`);
    await expect(compare).toHaveAttribute('data-verdict', 'different');
    await expect(compare.getByTestId('sent-vs-received-verdict')).toHaveText('Differs from what the service sent: 3 values.');
    const diffs = compare.getByTestId('body-diffs').locator('li');
    await expect(diffs).toHaveCount(3);
    await expect(compare.locator('[data-testid="body-diffs"] li[data-path="data.amount"]')).toHaveAttribute('data-diff', 'changed');
    await expect(compare.locator('[data-testid="body-diffs"] li[data-path="data.amount"]')).toContainText('15000 → 1');
    await expect(compare.locator('[data-testid="body-diffs"] li[data-path="data.note"]')).toHaveAttribute('data-diff', 'removed');
    await expect(compare.locator('[data-testid="body-diffs"] li[data-path="data.rewrittenBy"]')).toHaveAttribute('data-diff', 'added');
    await expect(compare.getByTestId('body-received').locator('[data-node="data.amount"]')).toHaveAttribute('data-diff', 'changed');
    await expect(compare.getByTestId('body-received').locator('[data-node="data.rewrittenBy"]')).toHaveAttribute('data-diff', 'added');
    await expect(compare.getByTestId('body-sent').locator('[data-node="data.note"]')).toHaveAttribute('data-diff', 'removed');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'body-viewer-diff-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page, 390, 'the receipt page with sent vs received');
    await screenshot(page, 'body-viewer-diff-390');
  });

  await test.step('the message page shows its payload in the same viewer', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/webhooks/${webhook.id}/messages/${message.id}`);
    const payload = page.getByTestId('body-viewer').filter({ has: page.getByRole('region', { name: 'Payload' }) });
    await expect(payload.getByRole('button', { name: 'amount: copy the path data.amount' })).toBeVisible();
    await screenshot(page, 'body-viewer-message-1280');
  });
});
