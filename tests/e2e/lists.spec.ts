import type { APIRequestContext } from '@playwright/test';
import { expect, expectFitsWidth, screenshot, test, sandboxAuth } from './fixtures';

// Lists that help (issue 41 item 7), in Chromium: Webhooks is one list with a "tracked" badge and
// filters (all / tracked / not tracked, any status / enabled / disabled) and a Track button that
// moves a webhook from one to the other; Nonprofits & Connects is a list searched and paged by the
// service (EXT GET /v1/nonprofits) by name, EIN or CID, a row opening its nonprofit and Connect.

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

test('Webhooks is one list: a tracked badge, filters by tracking and status, Track moves a webhook', async ({ page, app }) => {
  const auth = await sandboxAuth(page.request, app.baseUrl);
  const tag = Math.random().toString(36).slice(2, 7);
  const make = async (description: string) =>
    json(
      await page.request.post(`${app.baseUrl}/v1/webhooks`, {
        headers: auth,
        data: { url: `https://lists-${tag}.example.org/hook`, eventTypes: ['grant.succeeded'], description },
      }),
      201,
    );
  const enabled = await make(`Lists ${tag} enabled`);
  const disabled = await make(`Lists ${tag} disabled`);
  await json(await page.request.patch(`${app.baseUrl}/v1/webhooks/${disabled.id}`, { headers: auth, data: { disabled: true } }), 200);

  await page.goto('/webhooks');
  const row = (id: string) => page.getByTestId('webhook-row').filter({ hasText: id });
  await expect(row(enabled.id)).toHaveAttribute('data-tracked', 'false');
  await expect(row(disabled.id)).toBeVisible();
  await expect(page.getByText('No subscriptions tracked yet')).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(1);

  await row(enabled.id)
    .getByRole('button', { name: `Track Lists ${tag} enabled` })
    .click();
  await page.waitForURL(new RegExp(`/webhooks/${enabled.id}$`)); // Track opens the webhook it tracked
  await page.goto('/webhooks');
  await expect(row(enabled.id)).toHaveAttribute('data-tracked', 'true');
  await expect(row(enabled.id).getByText('tracked', { exact: true })).toBeVisible();
  await expect(row(disabled.id).getByText('tracked', { exact: true })).toHaveCount(0);

  const filters = page.getByTestId('webhook-filters');
  await filters.getByRole('link', { name: 'Tracked', exact: true }).click();
  await page.waitForURL(/tracked=yes/);
  await expect(filters.getByRole('link', { name: 'Tracked', exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(row(enabled.id)).toBeVisible();
  await expect(row(disabled.id)).toHaveCount(0);
  await expect(page.getByTestId('webhook-row').and(page.locator('[data-tracked="false"]'))).toHaveCount(0);

  await filters.getByRole('link', { name: 'Not tracked' }).click();
  await page.waitForURL(/tracked=no/);
  await expect(row(enabled.id)).toHaveCount(0);
  await expect(row(disabled.id)).toBeVisible();

  await filters.getByRole('link', { name: 'Disabled' }).click();
  await page.waitForURL((u) => u.searchParams.get('tracked') === 'no' && u.searchParams.get('status') === 'disabled');
  await expect(row(disabled.id)).toBeVisible();
  await filters.getByRole('link', { name: 'All', exact: true }).click();
  await page.waitForURL((u) => !u.searchParams.has('tracked') && u.searchParams.get('status') === 'disabled');
  await expect(row(disabled.id)).toBeVisible();
  await expect(row(enabled.id)).toHaveCount(0);
  await filters.getByRole('link', { name: 'Enabled' }).click();
  await expect(row(enabled.id)).toBeVisible();
  await expect(row(disabled.id)).toHaveCount(0);
  await screenshot(page, 'webhooks-list');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/webhooks');
  expect(await row(enabled.id).evaluate((r) => getComputedStyle(r).display), 'a card on a phone').toBe('block');
  await expectFitsWidth(page, 390);
  await screenshot(page, 'webhooks-list-390');
});

test('Nonprofits & Connects: searched by name, EIN and CID and paged by the service; a row opens its nonprofit and Connect', async ({ page, app }) => {
  const auth = await sandboxAuth(page.request, app.baseUrl);
  const word = `Quokka${Math.random().toString(36).slice(2, 7)}`;
  const made: { id: string; ein: string }[] = [];
  for (let i = 0; i < 23; i++) {
    const ein = `53${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    made.push(
      await json(
        await page.request.post(`${app.baseUrl}/v1/nonprofits`, {
          headers: auth,
          data: { ein, name: `${word} Shelter ${i}`, user: { email: 'np@example.org' } },
        }),
        201,
      ),
    );
  }
  const connect = await json(
    await page.request.post(`${app.baseUrl}/v1/connects?nonprofit=${made[22].id}`, { headers: auth, data: { name: `${word} giving` } }),
    201,
  );

  await page.goto('/nonprofits');
  const search = page.getByRole('searchbox', { name: 'Search by name, EIN or CID' });
  await search.fill(word.toLowerCase());
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(/q=/);
  const rows = page.getByTestId('nonprofit-row');
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText(`${word} Shelter 22`);
  await expect(rows.first()).toContainText(connect.id);
  await expect(rows.nth(1)).toContainText('none for this account');
  await page.getByRole('link', { name: 'Older →' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.last()).toContainText(`${word} Shelter 0`);
  await page.getByRole('link', { name: '← First page' }).click();
  await expect(rows).toHaveCount(20);

  await search.fill(made[5].ein);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`${word} Shelter 5`);

  await search.fill(connect.id);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: `${word} Shelter 22` }).click();
  await page.waitForURL((u) => u.searchParams.get('connect') === connect.id);
  await expect(page.getByTestId('nonprofit')).toContainText(made[22].ein);
  await expect(page.getByTestId('connect')).toHaveAttribute('data-cid', connect.id);
  await screenshot(page, 'nonprofits-list');

  await search.fill('no such nonprofit anywhere');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Nothing matches “no such nonprofit anywhere”')).toBeVisible();

  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/nonprofits?q=${word}`);
    expect(await rows.first().evaluate((r) => getComputedStyle(r).display), `a card at ${width} px`).toBe('block');
    await expectFitsWidth(page, width);
    await screenshot(page, `nonprofits-list-${width}`);
  }
});

// Issue 50.3: the reconciliation page lists every grant of the day, not only the differences: a
// filter of links (with a difference / all grants), each grant with its money, fund and status, a
// card per grant on a phone. Screenshots at 1280 and 390 px, light and dark.
test('Reconciliation: the grants with a difference or all of them, each with its money, fund and status; a card per grant on a phone', async ({
  page,
  app,
}) => {
  const auth = await sandboxAuth(page.request, app.baseUrl);
  const ein = `54${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const np = await json(
    await page.request.post(`${app.baseUrl}/v1/nonprofits`, {
      headers: auth,
      data: { ein, name: 'Reconciled Riverside Food Pantry', user: { email: 'np@example.org' } },
    }),
    201,
  );
  const created = await json(await page.request.post(`${app.baseUrl}/v1/connects?nonprofit=${np.id}`, { headers: auth }), 201);
  const { apiKey } = await json(await page.request.get(`${app.baseUrl}/v1/connects/${created.id}`, { headers: auth }), 200);
  const give = async (amount: number, coveredFees: boolean) =>
    json(
      await page.request.post(`${app.baseUrl}/v1/grants`, {
        headers: { ...auth, 'x-service-api-key': apiKey },
        data: { amount, coveredFees, fundId: 'vanguard-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada.recon@example.org' },
      }),
      201,
    );
  const grants = [await give(2500, true), await give(125_000, false)];
  const day = grants[0].createdAt.slice(0, 10); // the e2e app's CONSOLE_TIME_ZONE is UTC

  await page.goto(`/reconciliation?date=${day}&nonprofit=${ein}`);
  const filter = page.getByTestId('recon-list-filter');
  await filter.getByRole('link', { name: /^All grants \(2\)$/ }).click();
  await page.waitForURL(/show=all/);
  await expect(filter.getByRole('link', { name: /^All grants/ })).toHaveAttribute('aria-current', 'true');
  const rows = page.getByTestId('recon-grant');
  await expect(rows).toHaveCount(2);
  const covered = rows.filter({ hasText: grants[0].trackingId });
  for (const text of ['$25.00', '$0.73', 'covered by donor', 'Vanguard Charitable', 'Initiated', 'Reconciled Riverside Food Pantry'])
    await expect(covered).toContainText(text);
  await expect(rows.filter({ hasText: grants[1].trackingId })).toContainText('$1,213.75'); // 1,250.00 less the 2.9 % fee
  await expect(page.getByRole('columnheader', { name: 'Made (UTC)' })).toBeAttached();
  await expect(page.getByTestId('recon-totals')).toContainText('Net to nonprofits');
  const dictionary = page.getByTestId('recon-columns');
  await dictionary.getByText('What each column of the CSV means').click();
  await expect(dictionary.getByText('first_row_of_grant', { exact: true })).toBeVisible();

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 390) {
        expect(await rows.first().evaluate((r) => getComputedStyle(r).display), 'a card on a phone').toBe('block');
        await expectFitsWidth(page, 390);
      }
      await screenshot(page, `reconciliation-all-${theme}-${width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
});
