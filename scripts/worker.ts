// The delivery worker (and the console's alert evaluator) on its own: `npm run worker`. Any number
// can share one PostgreSQL database (DATABASE_URL); the app then runs with WORKER_IN_PROCESS=false.
// Stops cleanly on SIGTERM/SIGINT (lib/process-runner.ts, as the app's server does).
import '../lib/load-env';
import { startAlertLoop, stopAlertLoop } from '@/lib/console/alerts/alert-loop';
import { env } from '@/lib/env';
import { openProcess, stopOnSignal } from '@/lib/process-runner';
import { startWorker, stopWorker } from '@/lib/service/delivery/worker';
import { startRollupBackfill, stopRollupBackfill } from '@/lib/service/stats/backfill-rollups';

const { store } = await openProcess({
  lockedHint:
    'The embedded store belongs to one process: the app already delivers webhooks itself ' +
    '(WORKER_IN_PROCESS=true). Standalone workers need a shared PostgreSQL database: set DATABASE_URL.',
});
const id = await startWorker();
startAlertLoop();
startRollupBackfill();
const where = store.startsWith('embedded') ? `${store} (this process only)` : store;
console.log(
  `delivery worker ${id} started: ${where}, concurrency ${env.DELIVERY_CONCURRENCY} (${env.DELIVERY_ENDPOINT_CONCURRENCY} per endpoint), ` +
    `woken by new deliveries, fallback poll ${env.DELIVERY_POLL_MS} ms; alert rules every ${env.ALERT_EVAL_MS} ms (one process at a time)`,
);
stopOnSignal(
  [
    { name: `delivery worker ${id}`, stop: (graceMs) => stopWorker({ graceMs }) },
    { name: 'alert evaluator', stop: () => stopAlertLoop() },
    { name: 'stats rollup backfill', stop: () => stopRollupBackfill() },
  ],
  { onStop: (line) => console.log(line) },
);
