import { CREDENTIAL_SETTINGS, startApp, type TApp } from '../helpers/app';
import { bannerApiBaseUrl, consoleOnlyEnv } from '../helpers/split-setup';
import { expect, screenshot, signedInPage, test } from './fixtures';

// The split setup, as an operator makes it: instance A serves the API; instance B is the console
// only, configured from A's start banner (the API base URL as printed, with /v1, and the
// credentials its first start generated and printed) and nothing else. Staff work in B: a receiver and a webhook, a Connect whose donor
// page B links to on A, a gift there, and the grant's message, attempt and receipt on B's timeline.

const randomEin = () => `${12 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

let a: TApp;
let b: TApp;
test.beforeAll(async () => {
  a = await startApp({ unsetEnv: CREDENTIAL_SETTINGS }); // as `npm start`: A makes its sandbox secret and prints it once
  b = await startApp({ env: consoleOnlyEnv(a) });
});
test.afterAll(async () => {
  await b?.destroy();
  await a?.destroy();
});

test('console-only instance set up from the banner: webhook, donor page on the API, grant on the timeline', async ({ browser }, testInfo) => {
  testInfo.setTimeout(180_000);
  expect(bannerApiBaseUrl(a)).toBe(`${a.baseUrl}/v1`);
  const page = await signedInPage(browser, b.baseUrl);
  await expect(page.getByTestId('environment')).toHaveAttribute('title', `API: ${a.baseUrl}`);
  let webhookId = '';
  let cid = '';

  await test.step('create a receiver and a webhook from B', async () => {
    await page.goto('/webhooks/new');
    await expect(page.getByLabel('A new receiver')).toBeChecked();
    await page.getByLabel('Receiver name').fill('Split receiver');
    await page.getByLabel('Description').fill('Split grant hook');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.waitForURL(/\/webhooks\/ep_[A-Za-z0-9]+$/);
    webhookId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByRole('heading', { name: 'Split grant hook' })).toBeVisible();
    await expect(page.getByText(`${b.baseUrl}/ingest/`).first(), "the webhook points at B's receiver").toBeVisible();
  });

  await test.step("register a nonprofit and a Connect; the grants page links to A's donor page", async () => {
    const admin = await page.context().newPage();
    await admin.goto('/nonprofits');
    const form = admin.getByRole('form', { name: 'Register a nonprofit' });
    await form.getByLabel('EIN').fill(randomEin());
    await form.getByLabel('Name', { exact: true }).fill('Split Food Bank');
    await form.getByLabel('E-mail').fill('director@split.example');
    await admin.getByRole('button', { name: 'Register nonprofit' }).click();
    await admin.getByRole('button', { name: 'Create Connect' }).click();
    await admin.waitForURL(/connect=test_/);
    cid = (await admin.getByTestId('connect').getAttribute('data-cid'))!;
    await expect(admin.getByTestId('donor-link')).toHaveAttribute('href', `${a.baseUrl}/connect/${cid}`);
    await screenshot(admin, 'split-nonprofits');

    await admin.goto(`/connects/${cid}/grants`);
    await expect(admin.getByText('No grants yet')).toBeVisible();
    await expect(admin.getByTestId('donor-link')).toHaveAttribute('href', `${a.baseUrl}/connect/${cid}`);
    await screenshot(admin, 'split-grants-empty');
    await admin.close();
  });

  await test.step('give through the donor page B links to', async () => {
    await page.goto('/nonprofits?connect=' + cid);
    const [donor] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('donor-link').click()]);
    await donor.waitForLoadState();
    expect(donor.url()).toBe(`${a.baseUrl}/connect/${cid}`);
    await expect(donor.getByRole('heading', { name: 'Split Food Bank' })).toBeVisible();
    await donor.locator('#fundId').selectOption({ index: 1 });
    await donor.locator('input[name="preset"]').first().check({ force: true });
    await donor.getByLabel('First name').fill('Sam');
    await donor.getByLabel('Last name').fill('Split');
    await donor.getByLabel('Email').fill('sam@example.org');
    await donor.getByRole('button', { name: 'Recommend grant' }).click();
    await donor.waitForURL(/thanks/);
    await donor.close();
  });

  await test.step("B's timeline shows the grant's message, its attempt and the receipt", async () => {
    await page.goto(`/webhooks/${webhookId}`);
    const row = page.getByTestId('message-row').first();
    await expect(row).toHaveAttribute('data-event-type', 'grant.succeeded', { timeout: 15_000 });
    await expect(row).toHaveAttribute('data-status', 'success');
    await expect(row.getByTestId('reconciliation')).toHaveText('delivered and received');
    await row.getByRole('button', { name: /^Expand/ }).click();
    const detail = page.getByTestId('message-detail');
    await expect(detail.getByTestId('attempt-row')).toHaveCount(1);
    await expect(detail.getByTestId('attempt-row')).toHaveAttribute('data-code', '200');
    await expect(detail.getByTestId('receipt-row')).toHaveCount(1);
    await expect(detail.getByTestId('receipt-row')).toHaveAttribute('data-verdict', 'valid');
    await screenshot(page, 'split-timeline');
  });
});
