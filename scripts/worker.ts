// The delivery worker (and the console's alert evaluator) on its own: `npm run worker`. Any number can share one PostgreSQL database
// (DATABASE_URL); the app then runs with WORKER_IN_PROCESS=false. Stops cleanly on SIGTERM/SIGINT.
import '../lib/load-env';
import { startAlertLoop, stopAlertLoop } from '@/lib/console/alerts/alert-loop';
import { closeDb, dbKind, getDb } from '@/lib/db/client';
import { DataDirLockedError } from '@/lib/db/lock';
import { env, parseEnv } from '@/lib/env';
import { startWorker, stopWorker } from '@/lib/service/delivery/worker';

async function main(): Promise<void> {
  try {
    parseEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  try {
    await getDb();
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(
        `${err.message}\nThe embedded store belongs to one process: the app already delivers webhooks itself ` +
          '(WORKER_IN_PROCESS=true). Standalone workers need a shared PostgreSQL database: set DATABASE_URL.',
      );
    } else {
      console.error(`Could not open the database: ${(err as Error).message}`);
    }
    process.exit(1);
  }
  const id = await startWorker();
  startAlertLoop();
  const store = (await dbKind()) === 'pglite' ? `embedded PGlite in ${env.DATA_DIR} (this process only)` : 'PostgreSQL (DATABASE_URL)';
  console.log(`delivery worker ${id} started: ${store}, concurrency ${env.DELIVERY_CONCURRENCY} (${env.DELIVERY_ENDPOINT_CONCURRENCY} per endpoint), woken by new deliveries, fallback poll ${env.DELIVERY_POLL_MS} ms; alert rules every ${env.ALERT_EVAL_MS} ms (one process at a time)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing deliveries in flight…`);
    const [stats] = await Promise.all([stopWorker({ graceMs: env.DELIVERY_TIMEOUT_MS + 2000 }), stopAlertLoop().catch(() => {})]);
    await closeDb().catch(() => {});
    console.log(`delivery worker ${id} stopped: ${JSON.stringify(stats)}`);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

await main();
