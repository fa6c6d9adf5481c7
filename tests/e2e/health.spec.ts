import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshot, test, sandboxAuth, docsScreenshot } from './fixtures';

// The health home and a webhook's charts in Chromium: three webhooks of the account made through
// the API — one whose console receiver answers 2xx (healthy), one whose receiver answers 500 and is
// retried every second (failing), one created disabled — must list troubled first, and the failing
// one's page must draw its outcome and latency charts, switchable between windows.
// The app is shared with the other spec files, so the account may hold other webhooks too.

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

async function setUp(page: Page, baseUrl: string) {
  const req = page.request;
  const auth = await sandboxAuth(req, baseUrl);
  // The healthy one's receiver holds its secret: arrivals it cannot verify would count against it.
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const ok = await json(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Answers 204', secret } }), 201);
  await json(await req.patch(`${baseUrl}/api/receivers/${ok.id}`, { data: { responseStatus: 204, responseBody: '' } }), 200);
  const down = await json(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Database down' } }), 201);
  await json(await req.patch(`${baseUrl}/api/receivers/${down.id}`, { data: { responseStatus: 500, responseBody: '{"error":"database down"}' } }), 200);
  const webhook = async (url: string, description: string, disabled = false) =>
    (
      await json(
        await req.post(`${baseUrl}/v1/webhooks`, { headers: auth, data: { url, eventTypes: ['grant.succeeded'], description, disabled, secret } }),
        201,
      )
    ).id as string;
  const healthy = await webhook(ok.ingestUrl, 'Health: donor CRM (answers 204)');
  const failing = await webhook(down.ingestUrl, 'Health: finance sync (answers 500)');
  const disabled = await webhook(ok.ingestUrl, 'Health: old endpoint (disabled)', true);
  for (const id of [healthy, healthy, healthy, failing]) await json(await req.post(`${baseUrl}/v1/webhooks/${id}/test`, { headers: auth }), 200);
  // The failing one is retried every second in tests: wait for a streak that makes it "failing".
  await expect
    .poll(async () => (await json(await req.get(`${baseUrl}/v1/webhooks/${failing}/stats`, { headers: auth }), 200)).failureStreak, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(3);
  await expect
    .poll(async () => (await json(await req.get(`${baseUrl}/v1/webhooks/${healthy}/stats`, { headers: auth }), 200)).successes, { timeout: 20_000 })
    .toBe(3);
  return { healthy, failing, disabled };
}

test('the health home lists every webhook troubled first; a webhook page draws its charts', async ({ page, app }) => {
  const { healthy, failing, disabled } = await setUp(page, app.baseUrl);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Webhook health' })).toBeVisible();
  const rows = page.getByTestId('health-row');
  const row = (id: string) => page.locator(`[data-testid="health-row"][data-webhook-id="${id}"]`);
  await expect(row(healthy)).toHaveAttribute('data-level', 'healthy');
  await expect(row(failing)).toHaveAttribute('data-level', 'failing');
  await expect(row(disabled)).toHaveAttribute('data-level', 'disabled');
  await expect(row(failing)).toContainText(/failed attempts in a row/);
  await expect(row(healthy)).toContainText('100%');
  await expect(row(healthy).getByTestId('sparkline').locator('svg')).toBeVisible();

  // Troubled first: every failing row, then disabled, degraded, recovering, unknown, healthy.
  const ORDER = ['failing', 'disabled', 'degraded', 'recovering', 'unknown', 'healthy'];
  const levels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-level') ?? ''));
  expect(levels.map((l) => ORDER.indexOf(l))).toEqual([...levels.map((l) => ORDER.indexOf(l))].sort((a, b) => a - b));
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-webhook-id')));
  expect(ids.indexOf(failing)).toBeLessThan(ids.indexOf(disabled));
  expect(ids.indexOf(disabled)).toBeLessThan(ids.indexOf(healthy));

  // The thresholds are stated on the page.
  await page.getByText('How health is judged').click();
  await expect(page.getByTestId('health-thresholds')).toContainText('3 or more failed attempts in a row');
  await expect(page.getByTestId('health-live')).toHaveAttribute('data-state', 'live');
  await screenshot(page, 'health-home');
  await docsScreenshot(page, 'screenshot-health');

  // The failing webhook's page: figures and both charts, with the 15 s timeout line; the window switches.
  await row(failing).getByRole('link', { name: 'Health: finance sync (answers 500)' }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${failing}$`));
  const health = page.getByTestId('webhook-health');
  await expect(health.getByTestId('health-badge')).toHaveAttribute('data-level', 'failing');
  // uPlot draws each chart on a canvas, named as an image for assistive technology, with a legend.
  await expect(health.getByTestId('chart-outcomes').locator('.uplot canvas')).toBeVisible();
  await expect(health.getByRole('img', { name: /^Attempts per 1 h over 24h: \d+ succeeded, [1-9]\d* failed$/ })).toBeVisible();
  await expect(health.getByTestId('chart-outcomes').locator('.u-legend')).toContainText('failure');
  await expect(health.getByTestId('chart-latency').locator('.uplot canvas')).toBeVisible();
  await expect(health.getByRole('img', { name: /^Response time p50, p95 and p99/ })).toBeVisible();
  await expect(health.getByTestId('chart-latency')).toContainText('timeout 15 s');
  await expect(health.getByTestId('health-figures')).toContainText('Success rate (24h)');
  await health.getByRole('button', { name: '1h' }).click();
  await expect(health.getByRole('button', { name: '1h' })).toHaveAttribute('aria-pressed', 'true');
  await expect(health.getByTestId('health-figures')).toContainText('Success rate (1h)');
  await expect(health.getByTestId('health-figures')).toContainText(/0 of \d+ attempts/);
  await expect(health.getByTestId('chart-outcomes')).toContainText('Attempts per 5 min');
  await screenshot(page, 'webhook-charts');
  await docsScreenshot(health, 'screenshot-webhook-charts');

  // 390 px wide: cards instead of the table, charts within the width, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(health.getByTestId('chart-latency').locator('.uplot canvas')).toBeVisible();
  // The charts follow their container's width once it has been measured again.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'mobile-webhook-charts');
  await page.goto('/');
  const card = page.locator('[data-testid="health-card"]').first();
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-level', 'failing');
  await expect(rows.first()).toBeHidden();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'mobile-health-home');
});

test('both sides: arrivals that fail verification make a webhook failing on the home, its page and the webhooks list; each verdict shows', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
  const S = newSecret();
  await page.goto('/');
  const r = await json(await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Ledger receiver (another secret)', secret: newSecret() } }), 201);
  const name = 'Health: ledger (receiver holds another secret)';
  const id = (
    await json(
      await req.post(`${app.baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: r.ingestUrl, eventTypes: ['grant.succeeded'], description: name, secret: S },
      }),
      201,
    )
  ).id as string;
  const sent = await json(await req.post(`${app.baseUrl}/v1/webhooks/${id}/test`, { headers: auth }), 200);
  await expect
    .poll(async () => (await json(await req.get(`${app.baseUrl}/v1/webhooks/${id}/stats`, { headers: auth }), 200)).successes, { timeout: 20_000 })
    .toBe(1);

  await test.step('the home: failing, 0 % counting the receiver, and the summary counts the badges shown', async () => {
    await page.goto('/');
    const row = page.locator(`[data-testid="health-row"][data-webhook-id="${id}"]`);
    await expect(row).toHaveAttribute('data-level', 'failing');
    await expect(row).toContainText('not verified at receiver “Ledger receiver (another secret)”');
    await expect(row.getByTestId('success-rate')).toHaveText('0%*');
    const levels = await page.getByTestId('health-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-level') ?? ''));
    const attention = levels.filter((l) => ['failing', 'degraded', 'disabled'].includes(l)).length;
    await expect(page.getByTestId('health-summary')).toHaveAttribute('data-attention', String(attention));
    await expect(page.getByTestId('health-summary')).toContainText(`${attention} need${attention === 1 ? 's' : ''} attention`);
    await expect(page.getByTestId('health-summary')).toContainText(`${levels.filter((l) => l === 'failing').length} failing`);
    await page.getByText('How health is judged').click();
    await expect(page.getByTestId('health-receiver-rule')).toContainText('Both sides count');
    await screenshot(page, 'health-home-both-sides');
  });

  await test.step('its page and the webhooks list say the same', async () => {
    await page.goto(`/webhooks/${id}`);
    await expect(page.getByTestId('webhook-health').getByTestId('health-badge')).toHaveAttribute('data-level', 'failing');
    await expect(page.getByTestId('health-figures')).toContainText('Failed at receiver (24h)1 arrival');
    await screenshot(page, 'webhook-page-both-sides');
    await page.goto('/webhooks');
    // In its column (a line of its card on a phone).
    const listed = page.locator('tr', { has: page.getByRole('link', { name }) }).getByTestId('webhook-health-status');
    await expect(listed).toHaveCount(1);
    await expect(listed).toHaveAttribute('data-level', 'failing');
    await screenshot(page, 'webhooks-list-health');
  });

  await test.step('the receiver gets the secret, the message is resent: "Received" shows both verdicts; the home says recovering', async () => {
    await json(await req.patch(`${app.baseUrl}/api/receivers/${r.id}`, { data: { secrets: [S] } }), 200);
    await json(await req.post(`${app.baseUrl}/v1/webhooks/${id}/messages/${sent.id}/resend`, { headers: auth }), 202);
    await page.goto(`/webhooks/${id}`);
    const row = page.locator(`[data-testid="message-row"][data-message-id="${sent.id}"]`);
    const verdicts = row.getByTestId('received-verdict');
    await expect(verdicts).toHaveCount(2, { timeout: 15_000 });
    await expect(verdicts.nth(0)).toHaveAttribute('data-verdict', 'invalid signature');
    await expect(verdicts.nth(1)).toHaveAttribute('data-verdict', 'valid');
    await screenshot(page, 'timeline-each-verdict');
    await page.goto('/');
    await expect(page.locator(`[data-testid="health-row"][data-webhook-id="${id}"]`)).toHaveAttribute('data-level', 'recovering');
    await expect(page.locator(`[data-testid="health-row"][data-webhook-id="${id}"]`)).toContainText(/recovering since \d\d:\d\d/);
  });

  await test.step('390 px: the home, the webhooks list and the timeline fit', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [shot, url] of [
      ['mobile-health-both-sides', '/'],
      ['mobile-webhooks-list-health', '/webhooks'],
      ['mobile-timeline-each-verdict', `/webhooks/${id}`],
    ]) {
      await page.goto(url);
      if (url === '/webhooks')
        await expect(
          page
            .locator('tr', { has: page.getByRole('link', { name }) })
            .getByTestId('webhook-health-status')
            .first(),
        ).toHaveAttribute('data-level', 'recovering');
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, shot);
    }
  });
});

test('the webhook Health section keeps its place while its figures load: the timeline below does not move', async ({ page, app }) => {
  // Lighthouse counted a layout shift of 0.22 on a timeline: the Health section replaced a 96 px
  // placeholder with ~450 px of figures and charts. The placeholder now has the loaded section's
  // shape (a receiver's figure, the legend's room, the latency caption's second line on a phone).
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  await page.goto('/');
  // A healthy webhook (the receiver verifies its arrivals): no reasons line, whose length depends on the data.
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const r = await json(await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Layout receiver', secret } }), 201);
  const id = (
    await json(
      await req.post(`${app.baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: r.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Health: layout', secret },
      }),
      201,
    )
  ).id as string;
  await json(await req.post(`${app.baseUrl}/v1/webhooks/${id}/test`, { headers: auth }), 200);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The stats answer is held until the placeholder has been measured.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/webhooks/*/stats*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/webhooks/${id}`);
    const timelineHeading = page.getByRole('heading', { name: 'Timeline', exact: true });
    await expect(page.getByTestId('webhook-health-pending')).toBeVisible();
    const before = (await timelineHeading.boundingBox())!.y;
    release();
    const health = page.getByTestId('webhook-health');
    await expect(health.getByTestId('chart-latency').locator('.uplot canvas')).toBeVisible();
    await expect(health.getByTestId('chart-outcomes').locator('.u-legend')).toBeVisible();
    const after = (await timelineHeading.boundingBox())!.y;
    expect(Math.abs(after - before), `the timeline moved by ${after - before} px at ${width} px`).toBeLessThanOrEqual(4);
    await page.unroute('**/api/webhooks/*/stats*');
  }
});

test('after Enable the Health section says what the header says at once: not disabled, and never "not failing" beside a Failing badge', async ({
  page,
  app,
}) => {
  const req = page.request;
  const auth = await sandboxAuth(req, app.baseUrl);
  const down = await json(await req.post(`${app.baseUrl}/api/receivers`, { data: { name: 'Enable drill (answers 500)' } }), 201);
  await json(await req.patch(`${app.baseUrl}/api/receivers/${down.id}`, { data: { responseStatus: 500, responseBody: '{"error":"drill"}' } }), 200);
  const id = (
    await json(
      await req.post(`${app.baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: down.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Health: enabled after a drill' },
      }),
      201,
    )
  ).id as string;
  await json(await req.post(`${app.baseUrl}/v1/webhooks/${id}/test`, { headers: auth }), 200);
  // Every retry spent (one a second in tests), so nothing is attempted after Enable: the figures stay as Enable left them.
  await expect
    .poll(async () => (await json(await req.get(`${app.baseUrl}/v1/webhooks/${id}/messages`, { headers: auth }), 200)).results[0]?.status, { timeout: 30_000 })
    .toBe('failed');
  await json(await req.patch(`${app.baseUrl}/v1/webhooks/${id}`, { headers: auth, data: { disabled: true } }), 200);

  await page.goto(`/webhooks/${id}`);
  const health = page.getByTestId('webhook-health');
  await expect(health.getByTestId('health-badge')).toHaveAttribute('data-level', 'disabled');
  await page.getByTestId('webhook-actions').getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('Webhook enabled.')).toBeVisible();
  // The moment the action reports, read once (no waiting for a poll): the header and Health agree.
  // Before, the Health section said "disabled" for up to its 5 s poll, then "Failing" (8 failed
  // attempts in a row) over a Failure streak that said "not failing" (Enable restarts the stretch).
  const [status, figures, level] = await Promise.all([
    page.getByTestId('webhook-status').innerText(),
    health.getByTestId('health-figures').innerText(),
    health.getByTestId('health-badge').getAttribute('data-level'),
  ]);
  expect(status).not.toContain('Disabled');
  expect(level).toBe('failing');
  expect(figures).toMatch(/Disabled\s+no\s+enabled/);
  expect(figures).toMatch(/Failure streak\s+\d+\s+no success yet/);
  expect(figures).not.toContain('not failing');
  // Gone, so the later spec files' grants on this worker's app are not sent to it.
  expect((await req.delete(`${app.baseUrl}/v1/webhooks/${id}`, { headers: auth })).status()).toBe(204);
});
