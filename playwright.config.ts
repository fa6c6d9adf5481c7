import { defineConfig } from '@playwright/test';

// End-to-end suite: Debian's Chromium (never a downloaded browser) against the built app, which each
// worker starts itself (tests/e2e/fixtures.ts) with a fresh database. Run through `npm test`.
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  forbidOnly: !!process.env.CI,
  retries: 0, // a flaky test is a bug to find, not to retry away
  // Two workers, each with its app: the suite mostly waits (on Chromium, the app, its timers), 41 tests
  // one after another took 13.5 min on a quiet 2-core machine with the cores ~55% busy. A third worker
  // did not shorten CI (14.7 min beside the other passes, load ~40, against 14.0 with two) and slowed
  // the other passes: the machine is full. Files are spread over the workers; the tests of a file run
  // in order in one of them (the axe sweep's three parts excepted: tests/e2e/a11y.spec.ts).
  workers: Number(process.env.E2E_WORKERS || 2),
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results/artifacts',
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME || 'test-results/e2e.json' }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
