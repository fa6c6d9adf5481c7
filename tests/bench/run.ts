// `npm run bench`: issue 10's hot paths, each measured beside its baseline in the same run, so the
// ratios mean something on any machine. Starts the built app (`npm run build` first) through
// tests/helpers/app.ts on its own defaults, once per store: embedded PGlite, and PostgreSQL too
// when TEST_DATABASE_URL (or DATABASE_URL) names a server — fresh databases are created there and
// dropped after. Loopback only; every loop bounded in count and time. Knobs: tests/bench/config.ts.
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startApp } from '../helpers/app';
import { staffCookie } from '../helpers/http';
import { cleanUpOnSignals, onCleanup, runCleanups } from './cleanup';
import { CONFIG, PG_ADMIN_URL, POSTGRES_SECTIONS, type TStore } from './config';
import { benchDelivery, DELIVERY_ACCOUNTS } from './delivery';
import { benchIngest } from './ingest';
import { benchPeak } from './peak';
import { benchPurge } from './purge';
import { fmt, printSummary, verdictOf, writeJson, type TFigure } from './report';
import { rssMiB } from './stats';
import { disposeApp } from './stores';
import { benchScale } from './scale';
import { benchSearch } from './search';
import { benchTimeline } from './timeline';
import { benchWorkers } from './workers';
import { benchYear } from './year';

const ROOT = path.resolve(import.meta.dirname, '../..');
// startApp's test defaults that would flatter the app (a 100 ms poll, 1 s retries): measure its own.
const TEST_ONLY_ENV = ['DELIVERY_POLL_MS', 'DELIVERY_RETRY_SCHEDULE'];

/** Sections that run on the store's shared app; scale and year start apps of their own. */
const SHARED_APP_SECTIONS = ['ingest', 'delivery', 'purge', 'search', 'timeline'] as const;

async function benchStore(store: TStore, figures: TFigure[], rss: Record<string, unknown>[]): Promise<void> {
  if (SHARED_APP_SECTIONS.some((s) => CONFIG.sections.includes(s))) await benchSharedApp(store, figures, rss);
  if (CONFIG.sections.includes('scale')) figures.push(...(await benchScale(store)));
  if (CONFIG.sections.includes('year')) figures.push(...(await benchYear(store)));
}

async function benchSharedApp(store: TStore, figures: TFigure[], rss: Record<string, unknown>[]): Promise<void> {
  const app = await startApp({ adminUrl: store === 'postgres' ? PG_ADMIN_URL : null, unsetEnv: TEST_ONLY_ENV, accounts: DELIVERY_ACCOUNTS });
  const dispose = onCleanup(() => disposeApp(app));
  console.log(
    `\n${store}: app pid ${app.pid()} at ${app.baseUrl}, database ${app.env.DATABASE_URL ? new URL(app.env.DATABASE_URL).pathname.slice(1) : app.env.DATA_DIR}`,
  );
  const note = (stage: string) => {
    const mib = rssMiB(app.pid());
    rss.push({ store, stage, rssMiB: mib });
    console.log(`  [app RSS ${stage}: ${fmt(mib)} MiB]`);
  };
  try {
    note('started');
    if (CONFIG.sections.includes('ingest')) {
      figures.push(...(await benchIngest(store, app, await staffCookie(app))));
      note(store === 'pglite' ? 'after ingest (restarted: the rows are counted with the app stopped)' : 'after ingest');
    }
    if (CONFIG.sections.includes('delivery')) {
      figures.push(...(await benchDelivery(store, app)));
      note('after delivery');
    }
    if (CONFIG.sections.includes('purge')) {
      figures.push(...(await benchPurge(store, app)));
      note('after the purge');
    }
    if (CONFIG.sections.includes('search')) {
      figures.push(...(await benchSearch(store, app)));
      note('after the search');
    }
    if (CONFIG.sections.includes('timeline')) {
      figures.push(...(await benchTimeline(store, app)));
      note(store === 'pglite' ? 'after timelines (restarted for the seeding)' : 'after timelines');
    }
  } catch (err) {
    console.error(`\n${store}: ${err instanceof Error ? err.stack : String(err)}\n--- app log (tail)\n${app.logs().slice(-4000)}`);
    throw err;
  } finally {
    await dispose();
  }
}

/**
 * Figures measured in one section against a baseline measured in another (issue 28): a worker's
 * drain against the delivery section's bare undici loop on PostgreSQL. Left without a ratio when
 * that section did not run.
 */
function relateFigures(figures: TFigure[]): void {
  for (const f of figures) {
    if (f.baseline !== null || !f.baselineName) continue;
    // The workers section's figures against the delivery section's undici loop on PostgreSQL (measured there, so its baseline is set).
    if (f.baselineName === 'bare undici loop')
      f.baseline = figures.find((g) => g.store === 'postgres' && g.baselineName === 'bare undici loop' && g.baseline !== null)?.baseline ?? null;
    if (f.baseline === null) f.note ??= 'needs the delivery section in the same run';
  }
}

async function main(): Promise<void> {
  cleanUpOnSignals();
  if (CONFIG.stores.includes('postgres') && !PG_ADMIN_URL)
    throw new Error('BENCH_STORES has postgres: set TEST_DATABASE_URL to a server the bench may create databases on');
  const startedAt = new Date();
  const t0 = performance.now();
  console.log(
    `Giving Connect bench — ${os.cpus().length} CPUs, Node ${process.version}; stores: ${CONFIG.stores.join(', ')}; sections: ${CONFIG.sections.join(', ')}`,
  );
  console.log(`knobs: ${JSON.stringify(CONFIG)}`);
  const figures: TFigure[] = [];
  const rss: Record<string, unknown>[] = [];
  const notes: string[] = [];
  const perStore = CONFIG.sections.some((s) => !POSTGRES_SECTIONS.includes(s));
  for (const store of perStore ? CONFIG.stores : []) {
    try {
      await benchStore(store, figures, rss);
    } catch (err) {
      notes.push(`${store}: ${String(err)}`);
      process.exitCode = 1;
    }
  }
  for (const [section, bench] of [
    ['workers', benchWorkers],
    ['peak', benchPeak],
  ] as const) {
    if (!CONFIG.sections.includes(section) || !CONFIG.stores.includes('postgres')) continue;
    try {
      figures.push(...(await bench()));
    } catch (err) {
      console.error(err);
      notes.push(`${section}: ${String(err)}`);
      process.exitCode = 1;
    }
  }
  relateFigures(figures);
  printSummary(figures);
  for (const n of notes) console.log(`  FAILED ${n}`);
  const fails = figures.filter((f) => verdictOf(f) === 'FAIL').length;
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\n${figures.length} figures, ${fails} below target; ${fmt(seconds)} s`);
  const file = writeJson(ROOT, figures, { startedAt: startedAt.toISOString(), seconds, knobs: CONFIG, rss, notes });
  console.log(`JSON: ${path.relative(ROOT, file)}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
