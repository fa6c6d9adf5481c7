// `npx tsx tests/bench/page-weight.ts` (after `npm run build`): the first-load JavaScript of the
// console's pages, as Debian's Chromium fetches it from the built app — each page in a fresh browser
// context (nothing cached), the bytes of every script response summed as sent (gzip, what the
// server compresses) and as unpacked. Issue 41's budget: at most 220 KB sent on the health home
// and on a webhook's timeline, charts included. Seeds a receiver, a webhook with three deliveries
// and one receipt, so the pages draw what they draw for a support engineer.
//   PAGES=/,/alerts   which pages (a webhook's timeline is `/webhooks/:id`, a receipt `/receipts/:id`)
//   LIGHTHOUSE=/path/to/node_modules/.bin/lighthouse   also Lighthouse's performance score (CHROME_PATH=/usr/bin/chromium)
//   SHOTS=dir   full-page screenshots at 1280 and 390 px into dir as ui-<name>-<width>.png
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright';
import { startApp, type TApp } from '../helpers/app';
import { seedConsolePages, type TSeeded } from './page-seed';

const BUDGET_KB = 220;
const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const execFileAsync = promisify(execFile);

type TWeight = { page: string; scripts: number; sentKB: number; unpackedKB: number; biggest: string[] };

const kb = (n: number) => Math.round(n / 102.4) / 10;

async function weigh(browser: Browser, app: TApp, cookie: string, path: string): Promise<TWeight> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: app.baseUrl }]);
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  const sent = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
  });
  // encodedDataLength at loadingFinished: the bytes on the wire for the response (headers included).
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) sent.set(e.requestId, e.encodedDataLength);
  });
  const unpacked = new Map<string, number>();
  tab.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    try {
      unpacked.set(res.url(), (await res.body()).length);
    } catch {
      /* a response without a body (redirect) */
    }
  });
  await tab.goto(`${app.baseUrl}${path}`, { waitUntil: 'networkidle' });
  await tab.waitForTimeout(500); // a chart's chunk loads after hydration
  await context.close();
  const rows = [...sent].map(([id, bytes]) => ({ url: scripts.get(id)!, bytes })).sort((a, b) => b.bytes - a.bytes);
  return {
    page: path,
    scripts: rows.length,
    sentKB: kb(rows.reduce((s, r) => s + r.bytes, 0)),
    unpackedKB: kb([...unpacked.values()].reduce((s, n) => s + n, 0)),
    biggest: rows.slice(0, 5).map((r) => `${kb(r.bytes)} KB ${new URL(r.url).pathname.split('/').pop()}`),
  };
}

async function lighthouse(bin: string, app: TApp, cookie: string, path: string): Promise<number | null> {
  const { stdout } = await execFileAsync(
    bin,
    [
      `${app.baseUrl}${path}`,
      '--only-categories=performance',
      '--output=json',
      '--quiet',
      `--extra-headers=${JSON.stringify({ cookie })}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout);
  if (process.env.LIGHTHOUSE_JSON) (await import('node:fs')).writeFileSync(process.env.LIGHTHOUSE_JSON, stdout);
  const score = report.categories?.performance?.score;
  const metric = (id: string) => report.audits?.[id]?.displayValue ?? '?';
  console.log(
    `  Lighthouse ${path}: CLS ${metric('cumulative-layout-shift')}, TBT ${metric('total-blocking-time')}, LCP ${metric('largest-contentful-paint')}`,
  );
  return typeof score === 'number' ? Math.round(score * 100) : null;
}

async function screenshots(browser: Browser, app: TApp, cookie: string, dir: string, pages: [string, string][]): Promise<void> {
  const [name, value] = cookie.split('=');
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name, value, url: app.baseUrl }]);
    const tab = await context.newPage();
    for (const [label, path] of pages) {
      await tab.goto(`${app.baseUrl}${path}`, { waitUntil: 'networkidle' });
      await tab.screenshot({ path: `${dir}/ui-${label}-${width}.png`, fullPage: true });
    }
    await context.close();
  }
}

function pagesOf(seeded: TSeeded): [string, string][] {
  const all: [string, string][] = [
    ['health', '/'],
    ['timeline', `/webhooks/${seeded.webhookId}`],
    ['message', `/webhooks/${seeded.webhookId}/messages/${seeded.messageId}`],
    ['receipt', `/receipts/${seeded.receiptId}`],
    ['alerts', '/alerts'],
  ];
  const wanted = process.env.PAGES?.split(',');
  return wanted ? all.filter(([label, p]) => wanted.includes(label) || wanted.includes(p)) : all;
}

async function main() {
  const app = await startApp();
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const seeded = await seedConsolePages(app);
    const pages = pagesOf(seeded);
    const results: (TWeight & { lighthouse?: number | null })[] = [];
    for (const [, path] of pages) {
      await weigh(browser, app, seeded.cookie, path); // warm the server's route (its first request compiles nothing, but loads the route's code)
      const w: TWeight & { lighthouse?: number | null } = await weigh(browser, app, seeded.cookie, path);
      if (process.env.LIGHTHOUSE) w.lighthouse = await lighthouse(process.env.LIGHTHOUSE, app, seeded.cookie, path);
      results.push(w);
    }
    if (process.env.SHOTS) await screenshots(browser, app, seeded.cookie, process.env.SHOTS, pages);
    for (const r of results) {
      const label = r.page.replace(seeded.webhookId, ':id').replace(seeded.messageId, ':msg').replace(String(seeded.receiptId), ':id');
      const lh = r.lighthouse === undefined ? '' : `, Lighthouse performance ${r.lighthouse}`;
      console.log(`${label}: ${r.sentKB} KB JavaScript sent (${r.unpackedKB} KB unpacked, ${r.scripts} scripts)${lh}`);
      console.log(`    biggest: ${r.biggest.join(', ')}`);
    }
    const over = results.filter((r) => (r.page === '/' || r.page.match(/^\/webhooks\/[^/]+$/)) && r.sentKB > BUDGET_KB);
    if (over.length) {
      console.log(`over the ${BUDGET_KB} KB budget: ${over.map((r) => r.page).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await app.destroy();
  }
}

await main();
