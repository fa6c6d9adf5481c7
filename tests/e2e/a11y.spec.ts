import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { COLOUR_RULES, expectNoSeriousA11yViolations, REFERENCE_EXCUSED } from './axe';
import { expect, expectFitsWidth, test, sandboxAuth, watchCsp } from './fixtures';

// axe-core on every page, in both themes, at 1280 and 390 px: no critical or serious WCAG 2.2
// A/AA violation (tests/e2e/axe.ts); AXE_REPORT=1 prints each page's findings. On the same visit,
// every console page is checked on a phone: nothing scrolls sideways at 390 or 320 px and the
// sticky header stays one row (at most 80 px) — one load per page for both. One browser context
// for the console's pages (the staff member's theme "system") and one for the pages of people
// without a session (sign-in, the share link, the donor's pages, the API reference), each loading
// every page once and turning it dark in place (see check below). No page, nor anything done on it,
// meets a refusal of the Content-Security-Policy (tests/e2e/fixtures.ts watchCsp).

type TTheme = 'light' | 'dark';
type TVisit = { name: string; path: string; ready?: (page: Page) => Promise<void>; excused?: string[] };

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/**
 * A webhook with a delivered test event and its receipt, a nonprofit's Connect with a grant, a share
 * link and an alert rule; and a second webhook whose receiver holds another secret, so the grant's
 * delivery there fails its signature check: the Problems page has a row, with the grant's tracking id.
 */
async function seed(req: APIRequestContext, baseUrl: string) {
  const auth = await sandboxAuth(req, baseUrl);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await json(
    await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Axe: a donor CRM receiver with a rather long name to wrap', secret } }),
    201,
  );
  const webhook = await json(
    await req.post(`${baseUrl}/v1/webhooks`, { headers: auth, data: { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Axe', secret } }),
    201,
  );
  const message = await json(await req.post(`${baseUrl}/v1/webhooks/${webhook.id}/test`, { headers: auth }), 200);
  const wrong = await json(
    await req.post(`${baseUrl}/api/receivers`, { data: { name: 'Axe: holds another secret', secret: `whsec_${randomBytes(32).toString('base64')}` } }),
    201,
  );
  const mistrusted = await json(
    await req.post(`${baseUrl}/v1/webhooks`, {
      headers: auth,
      data: { url: wrong.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Axe: signs with a secret its receiver lacks', secret },
    }),
    201,
  );
  const ein = `46${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const np = await json(
    await req.post(`${baseUrl}/v1/nonprofits`, {
      headers: auth,
      data: { ein, name: 'Axe Friends of the Very Long Named Public Library', user: { email: 'director@example.org' } },
    }),
    201,
  );
  const created = await json(await req.post(`${baseUrl}/v1/connects?nonprofit=${np.id}`, { headers: auth }), 201);
  const connect = await json(await req.get(`${baseUrl}/v1/connects/${created.id}`, { headers: auth }), 200);
  const grant = await json(
    await req.post(`${baseUrl}/v1/grants`, {
      headers: { ...auth, 'x-service-api-key': connect.apiKey },
      data: { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada.axe@example.org' },
    }),
    201,
  );
  let receiptId = 0;
  await expect
    .poll(async () => (receiptId = (await json(await req.get(`${baseUrl}/api/receivers/${receiver.id}/receipts`), 200)).results[0]?.id ?? 0), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  await expect
    .poll(async () => (await json(await req.get(`${baseUrl}/api/problems`), 200)).items.some((i: { webhookId: string }) => i.webhookId === mistrusted.id), {
      timeout: 20_000,
    })
    .toBe(true);
  const share = await json(await req.post(`${baseUrl}/api/shares`, { data: { query: grant.trackingId, ticket: 'AXE-1' } }), 201);
  await json(
    await req.post(`${baseUrl}/api/alert-rules`, {
      data: { name: 'Axe: disabled', kind: 'webhook_disabled', targetUrl: `${baseUrl}/ingest/axe-alerts`, enabled: false },
    }),
    201,
  );
  // Its webhook goes once the pages are checked (seed's caller), so the later spec files' grants, on this worker's app, are not sent to it.
  const dropMistrusted = async () => expect((await req.delete(`${baseUrl}/v1/webhooks/${mistrusted.id}`, { headers: auth })).status()).toBe(204);
  return {
    dropMistrusted,
    webhook: webhook.id as string,
    message: message.id as string,
    receiptId,
    receiver: receiver.id as string,
    ein,
    connectId: created.id as string,
    trackingId: grant.trackingId as string,
    shareUrl: share.url as string,
  };
}

/** Whether the page's background is dark (its luminance from the computed colour, rgb or oklch). */
function pageIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const probe = document.createElement('canvas').getContext('2d')!;
    probe.fillStyle = getComputedStyle(document.body).backgroundColor;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  });
}

const WIDTHS = [1280, 390];
/** The phone widths a console page must fit without sideways scrolling, and its header's most height there. */
const PHONE = 390;
const NARROWEST = 320;
const HEADER_MAX = 80;

/** The page at `width` (resized in place) fits it: nothing scrolls sideways, and the console header (the password page has none) is one row. */
async function fitsPhone(page: Page, name: string, width: number): Promise<void> {
  await atWidth(page, width);
  await expectFitsWidth(page, width, `${name} at ${width} px`);
  for (const header of await page.locator('header[data-menu]').all()) {
    expect.soft(await header.evaluate((h) => h.getBoundingClientRect().height), `the header of ${name} at ${width} px`).toBeLessThanOrEqual(HEADER_MAX);
  }
}

/** Turns the open page to `theme` in place: the browser's prefers-color-scheme and, on the console, the class of <html> a stored theme sets (and the theme control sets at once). */
async function turn(page: Page, theme: TTheme, { staff }: { staff: boolean }): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  if (staff) await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The page at `width` (resized in place, not loaded again), from the top. */
async function atWidth(page: Page, width: number): Promise<void> {
  if (page.viewportSize()?.width !== width) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  // From the top: once scrolled, the sticky header covers controls, which axe counts against their target size.
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * One page, loaded once, in both themes at both widths: light at 1280 then 390 px with every rule
 * (a console page is then checked to fit 390 and 320 px), then turned dark in place (the markup is the same in both themes, only its colours differ) with
 * the rules about colour at 390 then 1280 px, and back to light for the next page. Each is checked
 * to be in the theme it should be (the page's background), so the dark pass cannot pass on light
 * pages. A11Y_SHOTS=<dir> also saves a full-page screenshot of each.
 */
async function check(page: Page, visit: TVisit, { staff, loaded = false }: { staff: boolean; loaded?: boolean }): Promise<void> {
  await test.step(visit.name, async () => {
    if (!loaded) {
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      const started = Date.now();
      await page.goto(visit.path);
      await page.waitForLoadState('networkidle');
      await visit.ready?.(page);
      if (process.env.AXE_REPORT) console.log(`loaded ${visit.name} in ${Date.now() - started} ms`);
    }
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await turn(page, 'dark', { staff });
      expect.soft(await pageIsDark(page), `${visit.name} is in the ${theme} theme`).toBe(theme === 'dark');
      for (const width of theme === 'light' ? WIDTHS : [...WIDTHS].reverse()) {
        await atWidth(page, width);
        await expectNoSeriousA11yViolations(page, `${visit.name} (${theme}, ${width} px)`, {
          excused: visit.excused,
          only: theme === 'dark' ? COLOUR_RULES : undefined,
        });
        if (process.env.A11Y_SHOTS)
          await page.screenshot({ path: `${process.env.A11Y_SHOTS}/${visit.name.replaceAll(' ', '-')}-${theme}-${width}.png`, fullPage: true });
        if (staff && theme === 'light' && width === PHONE) for (const w of [PHONE, NARROWEST]) await fitsPhone(page, visit.name, w);
      }
    }
    await turn(page, 'light', { staff });
  });
}

/** Every page of the sweep, for the seeded data `s`: the console's (a staff session) and the public ones. */
function pagesFor(s: Awaited<ReturnType<typeof seed>>): { staffPages: TVisit[]; publicPages: TVisit[] } {
  const timeline = `/webhooks/${s.webhook}`;
  const staffPages: TVisit[] = [
    { name: 'health home', path: '/' },
    { name: 'webhooks', path: '/webhooks' },
    { name: 'new webhook', path: '/webhooks/new' },
    {
      // The timeline with its charts drawn, a message opened and the Recover panel open: one visit.
      name: 'timeline with a message and Recover open',
      path: timeline,
      ready: async (p) => {
        // The charts draw once the page's health query answers: past 10 s in a CI run at load ~25.
        await expect(p.getByTestId('chart-latency').locator('.uplot canvas')).toBeVisible({ timeout: 30_000 });
        await p
          .getByRole('button', { name: `Expand ${s.message}` })
          .first()
          .click();
        await expect(p.getByRole('button', { name: `Collapse ${s.message}` }).first()).toBeVisible();
        await p.getByTestId('recover-open').click();
        await expect(p.getByRole('heading', { name: 'Recover messages' })).toBeVisible();
        await p.waitForLoadState('networkidle');
      },
    },
    { name: 'message', path: `${timeline}/messages/${s.message}` },
    { name: 'receipt', path: `/receipts/${s.receiptId}` },
    { name: 'receivers', path: '/receivers' },
    { name: 'receiver', path: `/receivers/${s.receiver}` },
    // With rows, a grant's tracking id among them (its link is a target axe measures: 2.5.8).
    { name: 'problems', path: '/problems', ready: (p) => expect(p.getByTestId('problem-tracking-id').first()).toBeVisible() },
    { name: 'case search', path: '/cases' },
    { name: 'case', path: `/cases/${s.trackingId}` },
    { name: 'alerts', path: '/alerts' },
    { name: 'audit', path: '/audit' },
    { name: 'staff', path: '/users' },
    { name: 'tokens', path: '/tokens' },
    { name: 'retention', path: '/retention' },
    { name: 'reconciliation', path: '/reconciliation' },
    { name: 'reconciliation, all grants', path: '/reconciliation?show=all' },
    { name: 'nonprofits and connects', path: `/nonprofits?ein=${s.ein}&connect=${s.connectId}` },
    { name: 'grants of a connect', path: `/connects/${s.connectId}/grants` },
    { name: 'change password', path: '/account/password' },
    { name: 'not found', path: '/webhooks/wh_does_not_exist_0000' },
  ];
  const publicPages: TVisit[] = [
    { name: 'sign-in', path: '/login' },
    { name: 'page not found', path: '/no-such-page' }, // app/not-found.tsx, every unknown path's 404
    { name: 'share link', path: new URL(s.shareUrl).pathname },
    { name: 'donor page', path: `/connect/${s.connectId}` },
    {
      name: 'API reference',
      path: '/reference',
      ready: (p) => expect(p.getByRole('heading', { name: 'Giving Connect API', level: 1 })).toBeVisible({ timeout: 30_000 }),
      excused: REFERENCE_EXCUSED,
    },
  ];

  return { staffPages, publicPages };
}

/**
 * The sweep in three parts that run side by side (each on its worker's app, with its own seed): the
 * console's pages in two halves, and the public pages with the donor's gift. One test was the browser
 * suite's longest path (9.3 min in CI beside the other passes).
 */
const PARTS = [
  { part: 'console pages, first half', pick: (p: ReturnType<typeof pagesFor>) => ({ staff: p.staffPages.slice(0, 10), anon: [] as TVisit[] }) },
  { part: 'console pages, second half', pick: (p: ReturnType<typeof pagesFor>) => ({ staff: p.staffPages.slice(10), anon: [] as TVisit[] }) },
  { part: 'public pages and the donor’s gift', pick: (p: ReturnType<typeof pagesFor>) => ({ staff: [] as TVisit[], anon: p.publicPages }) },
];

test.describe('no critical or serious axe violation on any page, light and dark, at 1280 and 390 px; no console page scrolls sideways at 390 or 320 px', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const { part, pick } of PARTS) {
    test(part, async ({ browser, app, staffState, page }) => {
      // 600 s: up to 12 pages × 2 themes × 2 widths beside CI's two other passes (load ~20).
      test.setTimeout(600_000);
      const s = await seed(page.request, app.baseUrl);
      const { staff: staffVisits, anon: anonVisits } = pick(pagesFor(s));
      // The staff member's theme is "system" in a light browser: each page comes light from the server,
      // and turns dark in place as a stored "dark" shows at once (tests/integration/staff-theme.test.ts
      // and the theme control's test below: the server renders the stored theme). People without a
      // session follow the browser's prefers-color-scheme.
      await json(await page.request.patch(`${app.baseUrl}/api/session`, { data: { theme: 'system' } }), 200);
      const staff = await browser.newContext({ baseURL: app.baseUrl, storageState: staffState, colorScheme: 'light' });
      const anon = await browser.newContext({ baseURL: app.baseUrl, storageState: { cookies: [], origins: [] }, colorScheme: 'light' });
      const cspSeen = [await watchCsp(staff), await watchCsp(anon)];
      const [staffTab, anonTab] = [await staff.newPage(), await anon.newPage()];
      try {
        for (const visit of staffVisits) await check(staffTab, visit, { staff: true });
      } finally {
        await s.dropMistrusted();
      }
      for (const visit of anonVisits) await check(anonTab, visit, { staff: false });
      if (anonVisits.length)
        await test.step('the donor gives and sees the thanks page', async () => {
          await anonTab.setViewportSize({ width: WIDTHS[0], height: 900 });
          await anonTab.goto(`/connect/${s.connectId}`);
          await anonTab.locator('#fundId').selectOption({ index: 1 });
          await anonTab.locator('input[name="preset"]').first().check({ force: true });
          await anonTab.getByLabel('First name').fill('Dana');
          await anonTab.getByLabel('Last name').fill('Donor');
          await anonTab.getByLabel('Email').fill('dana.axe@example.org');
          await anonTab.getByRole('button', { name: 'Recommend grant' }).click();
          await anonTab.waitForURL(/thanks/);
          await anonTab.waitForLoadState('networkidle');
          await check(anonTab, { name: 'thanks page', path: '' }, { staff: false, loaded: true });
        });
      expect(cspSeen.flat(), 'no Content-Security-Policy violation on any page').toEqual([]);
      await staff.close();
      await anon.close();
    });
  }
});

test('the theme control: the choice shows at once, is remembered, and the next page comes from the server in it', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/webhooks');
  expect(await pageIsDark(page)).toBe(false);
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveClass('dark');
  expect(await pageIsDark(page)).toBe(true);
  await expect.poll(async () => (await (await page.request.get('/api/session')).json()).theme, { message: 'stored for the staff member' }).toBe('dark');
  // No flash: the page's HTML itself (before any script) says dark.
  expect(await (await page.request.get('/receivers')).text()).toMatch(/<html[^>]*\bclass="dark"/);
  await page.goto('/receivers');
  await expect(page.getByLabel('Theme')).toHaveValue('dark');
  expect(await pageIsDark(page)).toBe(true);

  await page.getByLabel('Theme').selectOption('system');
  await expect.poll(async () => (await (await page.request.get('/api/session')).json()).theme).toBe('system');
  expect(await pageIsDark(page), 'Auto in a light browser').toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await pageIsDark(page), 'Auto follows the browser turning dark').toBe(true);
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveClass('light');
  expect(await pageIsDark(page), 'Light in a dark browser').toBe(false);
  await page.getByLabel('Theme').selectOption('system');
  await expect.poll(async () => (await (await page.request.get('/api/session')).json()).theme).toBe('system');
});

test('the Content-Security-Policy: a script slipped into a page without its nonce does not run, and is reported; the page’s own scripts do', async ({
  browser,
  app,
  staffState,
}) => {
  const context = await browser.newContext({ baseURL: app.baseUrl, storageState: staffState });
  const seen = await watchCsp(context);
  // What stored markup injection would do: an inline script and an inline event handler in the page as served.
  await context.route(/\/receivers$/, async (route) => {
    const res = await route.fetch();
    const injected = '<script>window.injectedRan = true</script><img src="/icon.svg" alt="" onload="window.handlerRan = true">';
    await route.fulfill({ response: res, body: (await res.text()).replace('</body>', `${injected}</body>`) });
  });
  const page = await context.newPage();
  await page.goto('/receivers');
  await page.waitForLoadState('networkidle');
  expect(await page.locator('img[onload]').count(), 'the injection reached the page').toBe(1);
  expect(await page.evaluate(() => [(window as any).injectedRan, (window as any).handlerRan])).toEqual([undefined, undefined]);
  await expect.poll(() => seen.filter((v) => v.includes('CSP violation: script-src')).length, { message: seen.join('\n') }).toBe(2);
  // Next's own scripts (they carry the nonce) ran: the page is interactive.
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveClass('dark');
  await page.getByLabel('Theme').selectOption('system');
  await expect.poll(async () => (await (await page.request.get('/api/session')).json()).theme).toBe('system');
  await context.close();
});
