import type { TApp } from './app';

/**
 * Full-page screenshots of console pages signed in with `cookie`, at 1280 and 390 px, into `dir` as
 * `<first path segment>-<width>.png` (Debian's Chromium). For looking at what a test built; tests
 * call it only when asked (an environment variable), so CI starts no browser for it.
 */
export async function screenshotPages(app: Pick<TApp, 'baseUrl'>, cookie: string, dir: string, paths: string[]): Promise<void> {
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  try {
    const [name, value] = cookie.split(';')[0].split('=');
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addCookies([{ name, value, url: app.baseUrl }]);
      const tab = await context.newPage();
      for (const p of paths) {
        await tab.goto(`${app.baseUrl}${p}`);
        await tab.waitForLoadState('networkidle');
        await tab.screenshot({ path: `${dir}/${p.split('/')[1]}-${width}.png`, fullPage: true });
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
}
