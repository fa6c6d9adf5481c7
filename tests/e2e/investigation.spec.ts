import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { freePort } from '../helpers/app';
import { expect, screenshot, test, sandboxAuth, docsScreenshot } from './fixtures';

// The README's default setup: the console's URL says localhost, integrators paste 127.0.0.1.
test.use({ publicHost: 'localhost' });

// "It never arrived", investigated in Chromium: one grant, three webhooks of one account —
//   W1 → console receiver R1, which holds the webhook's secret   → delivered and received
//   W2 → console receiver R2, which holds another secret         → received, bad signature
//   W3 → a loopback port nothing listens on                      → network error
//   W4 → R1 again, through 127.0.0.1 while the console's URL says localhost → delivered and received
// set up through the API, then read through the pages support uses: each timeline, the header
// search (tracking id, grant id, message id → the case page) and /problems.
// The app is shared with the other spec files of the worker, so the account may hold other
// webhooks: assertions are about W1–W3, and counts are taken against the account's webhook list.

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** clock() of explain-delivery: "12:04:05", or "Nov 22 12:04:05" on another UTC day than now. */
const CLOCK = String.raw`(?:[A-Z][a-z]{2} \d{1,2} )?\d\d:\d\d:\d\d`;
const fp = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

type TSetup = {
  W1: string;
  W2: string;
  W3: string;
  W4: string;
  S: string;
  OTHER: string;
  messageId: string;
  grant: { id: string; trackingId: string; email: string };
};

async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** The three-webhook scenario through the API; staff calls ride on the signed-in page's cookies. */
async function setUp(page: Page, baseUrl: string): Promise<TSetup> {
  const req = page.request;
  const auth = await sandboxAuth(req, baseUrl);
  const S = newSecret();
  const OTHER = newSecret();
  const R1 = await json(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'R1 holds the secret', secret: S } }), 201);
  const R2 = await json(await req.post(`${baseUrl}/api/receivers`, { data: { name: 'R2 holds another secret', secret: OTHER } }), 201);
  const deadPort = await freePort(); // bound, then closed
  const webhook = async (url: string, description: string) =>
    (await json(await req.post(`${baseUrl}/v1/webhooks`, { headers: auth, data: { url, eventTypes: ['grant.succeeded'], description, secret: S } }), 201))
      .id as string;
  const W1 = await webhook(R1.ingestUrl, 'W1 right secret');
  const W2 = await webhook(R2.ingestUrl, 'W2 wrong secret');
  const W3 = await webhook(`http://127.0.0.1:${deadPort}/hook`, 'W3 dead port');
  expect(R1.ingestUrl).toMatch(/^http:\/\/localhost:\d+\/ingest\//);
  const W4 = await webhook(R1.ingestUrl.replace('//localhost:', '//127.0.0.1:'), 'W4 R1 through 127.0.0.1');

  const ein = `47${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const np = await json(await req.post(`${baseUrl}/v1/nonprofits`, { headers: auth, data: { ein, user: { email: 'director@example.org' } } }), 201);
  const created = await json(await req.post(`${baseUrl}/v1/connects?nonprofit=${np.id}`, { headers: auth }), 201);
  const connect = await json(await req.get(`${baseUrl}/v1/connects/${created.id}`, { headers: auth }), 200);
  const email = `donor-${randomBytes(4).toString('hex')}@example.org`;
  const grant = await json(
    await req.post(`${baseUrl}/v1/grants`, {
      headers: { ...auth, 'x-service-api-key': connect.apiKey },
      data: { amount: 15000, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email },
    }),
    201,
  );

  // W3's 8 attempts take ~7 s (DELIVERY_RETRY_SCHEDULE=1,…,1 in tests).
  let messageId = '';
  await expect
    .poll(
      async () => {
        const statuses = [];
        for (const w of [W1, W2, W3, W4]) {
          const list = await json(await req.get(`${baseUrl}/v1/webhooks/${w}/messages`, { headers: auth }), 200);
          if (list.results.length !== 1) return 'no message yet';
          messageId = list.results[0].id;
          statuses.push(list.results[0].status);
        }
        return statuses.join(' ');
      },
      { timeout: 45_000, message: 'W1, W2 and W4 success, W3 failed' },
    )
    .toBe('success success failed success');
  return { W1, W2, W3, W4, S, OTHER, messageId, grant };
}

test('investigate a grant: timelines, the case from the header search, problems; 390 px fits', async ({ page, app }) => {
  test.setTimeout(240_000);
  let s!: TSetup;
  await test.step('set up W1 (right secret), W2 (another secret), W3 (dead port), W4 (R1 via 127.0.0.1) and one grant', async () => {
    await page.goto('/webhooks');
    s = await setUp(page, app.baseUrl);
  });
  const expected: [keyof Pick<TSetup, 'W1' | 'W2' | 'W3' | 'W4'>, string, string, RegExp][] = [
    [
      'W1',
      'delivered-and-received',
      'delivered and received',
      new RegExp(`^delivered: arrived ${CLOCK} at receiver “R1 holds the secret”, signature valid, answered 200$`),
    ],
    ['W2', 'received-bad-signature', 'received, signature not verified', /the receiver holds a different secret \(fingerprints (\w{8})… vs (\w{8})…\)/],
    ['W3', 'network-error', 'network error, never reached', /^sent 8 times; never reached the receiver: no response.*; no retries left$/],
    [
      'W4',
      'delivered-and-received',
      'delivered and received',
      new RegExp(`^delivered: arrived ${CLOCK} at receiver “R1 holds the secret”, signature valid, answered 200$`),
    ],
  ];

  await test.step('each timeline: the row’s reconciliation and explanation', async () => {
    for (const [w, , label, explanation] of expected) {
      await page.goto(`/webhooks/${s[w]}`);
      const row = page.locator(`[data-testid="message-row"][data-message-id="${s.messageId}"]`);
      await expect(row).toHaveCount(1);
      await expect(page.getByTestId('message-row'), `${w}'s timeline has only this message`).toHaveCount(1);
      await expect(row.getByTestId('reconciliation')).toHaveText(label);
      // the explanation is the row's own, or the line under it in the same <tbody>
      const text = page.locator('tbody', { has: row }).getByTestId('explanation');
      await expect(text).toHaveText(explanation);
      if (w === 'W2') await expect(text).toContainText(`fingerprints ${fp(s.S)}… vs ${fp(s.OTHER)}…`);
    }
  });

  const accountWebhooks = async () => {
    const auth = await sandboxAuth(page.request, app.baseUrl);
    return (await (await page.request.get(`${app.baseUrl}/v1/webhooks?pageLimit=100`, { headers: auth })).json()).results.length as number;
  };

  const checkCase = async (q: string) => {
    await expect(page, `${q} lands on its case page`).toHaveURL(new RegExp(`/cases/${encodeURIComponent(q).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), {
      timeout: 15_000,
    });
    await expect(page.getByTestId('case-grant')).toHaveCount(1);
    await expect(page.getByTestId('case-grant')).toContainText(s.grant.trackingId);
    const message = page.locator(`[data-testid="case-message"][data-message-id="${s.messageId}"]`);
    await expect(message).toHaveCount(1);
    await expect(page.getByTestId('case-message')).toHaveCount(1);
    await expect(message.getByTestId('case-delivery'), 'one block per webhook of the account').toHaveCount(await accountWebhooks());
    for (const [w, state, , explanation] of expected) {
      const block = message.locator(`[data-testid="case-delivery"][data-webhook-id="${s[w]}"]`);
      await expect(block).toHaveCount(1);
      await expect(block).toHaveAttribute('data-reconciliation', state);
      await expect(block.getByTestId('explanation')).toHaveText(explanation);
      if (w === 'W1' || w === 'W4') await expect(block.getByTestId('case-receipt'), `${w} claims only the arrival at its own address`).toHaveCount(1);
    }
  };
  const searchFor = async (q: string) => {
    const box = page.locator('header').getByRole('searchbox', { name: 'Search' });
    await box.fill(q);
    await box.press('Enter');
    await checkCase(q);
  };

  await test.step('the header search: tracking id, then grant id, then message id → the case page', async () => {
    await page.goto('/webhooks');
    await searchFor(s.grant.trackingId);
    await screenshot(page, 'case');
    await docsScreenshot(page, 'screenshot-case');
    await searchFor(s.grant.id);
    await searchFor(s.messageId);
  });

  await test.step('problems: W2 and W3 are listed with counts, W1 is not', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Problems' }).click();
    await expect(page).toHaveURL(/\/problems$/);
    for (const w of ['W2', 'W3'] as const) {
      const group = page.locator(`[data-testid="problem-group"][data-webhook-id="${s[w]}"]`);
      await expect(group).toHaveCount(1);
      await expect(group.getByTestId('problem-count')).toHaveText('1');
    }
    await expect(page.locator(`[data-testid="problem-group"][data-webhook-id="${s.W1}"]`), 'a healthy webhook is not listed').toHaveCount(0);
    // the message's items, one per webhook that has a problem with it (other webhooks of the account may have theirs)
    const item = (w: 'W1' | 'W2' | 'W3' | 'W4') => page.locator(`[data-testid="problem-item"][data-message-id="${s.messageId}"][data-webhook-id="${s[w]}"]`);
    await expect(item('W2')).toHaveCount(1);
    await expect(item('W2')).toHaveAttribute('data-reconciliation', 'received-bad-signature');
    await expect(item('W3')).toHaveCount(1);
    await expect(item('W3')).toHaveAttribute('data-reconciliation', 'network-error');
    await expect(item('W3').getByTestId('explanation')).toContainText('never reached the receiver');
    await expect(item('W1')).toHaveCount(0);
    await expect(item('W4')).toHaveCount(0);
    await screenshot(page, 'problems');
    await docsScreenshot(page, 'screenshot-problems');
  });

  await test.step('signature forensics on W2’s receipt; “use this webhook’s secret” makes the next delivery verify', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/cases/${s.messageId}`);
    const w2 = page.locator(`[data-testid="case-delivery"][data-webhook-id="${s.W2}"]`);
    const receiptLink = w2.getByTestId('case-receipt').getByRole('link', { name: /^#\d+$/ });
    await expect(receiptLink).toHaveCount(1);
    const receiptId = (await receiptLink.textContent())!.slice(1);
    await receiptLink.click();
    await expect(page).toHaveURL(new RegExp(`/receipts/${receiptId}$`));

    const forensics = page.getByTestId('forensics');
    await expect(forensics).toBeVisible();
    const row = (label: string) => forensics.getByTestId('fingerprints').getByTestId('fingerprint-row').filter({ hasText: label });
    /** The value next to a term of the forensics' description list. */
    const line = (term: string) => forensics.locator(`dt:text-is("${term}") + dd`);
    await expect(row('webhook at the service')).toHaveCount(1);
    await expect(row('webhook at the service'), 'S signed the request').toHaveAttribute('data-matches', 'true');
    await expect(row('webhook at the service')).toContainText(`${fp(s.S)}…`);
    await expect(row('receiver, current')).toHaveCount(1);
    await expect(row('receiver, current'), 'R2’s secret did not').toHaveAttribute('data-matches', 'false');
    await expect(row('receiver, current')).toContainText(`${fp(s.OTHER)}…`);
    await expect(line('Timestamp skew')).toContainText('within tolerance');
    await expect(line('Body')).toHaveText('byte-for-byte what the service sent');
    const adopt = page.getByRole('button', { name: 'Use this webhook’s secret on the receiver' });
    await expect(adopt).toBeVisible();
    await docsScreenshot(page, 'screenshot-forensics');

    await adopt.click();
    await expect(page.getByText('The receiver now holds the webhook’s secret')).toBeVisible();
    await page.reload();
    await expect(row('receiver, current')).toHaveAttribute('data-matches', 'true');
    await expect(row('receiver, current')).toContainText(`${fp(s.S)}…`);
    await expect(row('receiver, previous'), 'the old secret stays as the previous one').toContainText(`${fp(s.OTHER)}…`);
    await expect(adopt).toHaveCount(0);

    // End to end: a test event to W2 now arrives at R2 with a signature R2 verifies.
    const sent = await json(await page.request.post(`${app.baseUrl}/v1/webhooks/${s.W2}/test`, { headers: await sandboxAuth(page.request, app.baseUrl) }), 200);
    expect(sent.id, 'the test event is a new message').not.toBe(s.messageId);
    await page.goto(`/webhooks/${s.W2}`);
    const testRow = page.locator(`[data-testid="message-row"][data-message-id="${sent.id}"]`);
    await expect(testRow.getByTestId('reconciliation')).toHaveText('delivered and received', { timeout: 15_000 });
  });

  await test.step('390 px wide: the case, problems and timeline pages do not scroll sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pages: [string, string][] = [
      ['case', `/cases/${encodeURIComponent(s.grant.trackingId)}`],
      ['problems', '/problems'],
      ['timeline W1', `/webhooks/${s.W1}`],
      ['timeline W2', `/webhooks/${s.W2}`],
      ['timeline W3', `/webhooks/${s.W3}`],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      if (name === 'case') await expect(page.getByTestId('case-delivery').first()).toBeVisible();
      if (name === 'problems') await expect(page.getByTestId('problem-group').first()).toBeVisible();
      if (name.startsWith('timeline')) await expect(page.getByTestId('message-card').first()).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${name} (${url}) is at most 390 px wide`).toBeLessThanOrEqual(390);
      await screenshot(page, `mobile-${name.replace(' ', '-')}`);
    }
  });
});
