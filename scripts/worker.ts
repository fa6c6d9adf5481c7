// The delivery worker (and the console's alert evaluator) on its own: `npm run worker`. Any number
// can share one PostgreSQL database (DATABASE_URL); the app then runs with WORKER_IN_PROCESS=false.
// Stops cleanly on SIGTERM/SIGINT (lib/process-runner.ts, as the app's server does). With
// WORKER_HEALTH_PORT set it answers GET /health and GET /ready there (lib/readiness).
import '../lib/load-env';
import { startAlertLoop, stopAlertLoop } from '@/lib/console/alerts/alert-loop';
import { startConsolePurge, stopConsolePurge } from '@/lib/console/retention/purge-console';
import { env } from '@/lib/env';
import { openProcess, stopOnSignal, type TProcessPart } from '@/lib/process-runner';
import { serveReadiness } from '@/lib/readiness/serve-readiness';
import { startWorker, stopWorker } from '@/lib/service/delivery/process-worker';
import { startFailingWarnings, stopFailingWarnings } from '@/lib/service/delivery/failing-warnings';
import { ensureServicePartitions, startServicePurge, stopServicePurge } from '@/lib/service/retention/purge-service';
import { startRollupBackfill, stopRollupBackfill } from '@/lib/service/stats/backfill-rollups';
import { startPayloadJsonBackfill, stopPayloadJsonBackfill } from '@/lib/service/messages/backfill-payload-json';
import { startBodyJsonBackfill, stopBodyJsonBackfill } from '@/lib/console/search/backfill-body-json';
import { startTracing, stopTracing } from '@/lib/telemetry/tracing';

const { store } = await openProcess({
  lockedHint:
    'The embedded store belongs to one process: the app already delivers webhooks itself ' +
    '(WORKER_IN_PROCESS=true). Standalone workers need a shared PostgreSQL database: set DATABASE_URL.',
});
// Traces of its attempts (lib/telemetry), when an OTLP endpoint is set.
const tracing = await startTracing('giving-connect-worker');
// Attempts' partitions a week ahead before the first attempt is written (lib/db/partitions).
await ensureServicePartitions();
const id = await startWorker();
startFailingWarnings();
startAlertLoop();
startRollupBackfill();
startPayloadJsonBackfill();
startBodyJsonBackfill();
startServicePurge();
startConsolePurge();
const parts: TProcessPart[] = [
  { name: `delivery worker ${id}`, stop: (graceMs) => stopWorker({ graceMs }) },
  { name: 'failing-webhook warnings', stop: () => stopFailingWarnings() },
  { name: 'alert evaluator', stop: () => stopAlertLoop() },
  { name: 'stats rollup backfill', stop: () => stopRollupBackfill() },
  { name: 'payload search backfills', stop: () => Promise.all([stopPayloadJsonBackfill(), stopBodyJsonBackfill()]) },
  { name: 'service retention purge', stop: () => stopServicePurge() },
  { name: 'console retention purge', stop: () => stopConsolePurge() },
  { name: 'traces', stop: () => stopTracing() },
];
let health = '';
if (env.WORKER_HEALTH_PORT) {
  const port = env.WORKER_HEALTH_PORT;
  const close = await serveReadiness(port, env.HOST).catch((err: NodeJS.ErrnoException) => {
    console.error(
      err.code === 'EADDRINUSE'
        ? `WORKER_HEALTH_PORT ${port} is already in use: stop what runs there, or choose another port.`
        : `Could not listen on WORKER_HEALTH_PORT ${port}: ${err.message}`,
    );
    process.exit(1);
  });
  parts.push({ name: 'health port', stop: close });
  health = `; GET /health and /ready on http://${env.HOST ?? 'localhost'}:${port}`;
}
const where = store.startsWith('embedded') ? `${store} (this process only)` : store;
console.log(
  `delivery worker ${id} started: ${where}, concurrency ${env.DELIVERY_CONCURRENCY} (${env.DELIVERY_ENDPOINT_CONCURRENCY} per endpoint), ` +
    `woken by new deliveries, fallback poll ${env.DELIVERY_POLL_MS} ms (up to 30 s while idle); alert rules every ${env.ALERT_EVAL_MS} ms and the retention purge (one process at a time)${health}`,
);
if (tracing) console.log(tracing);
stopOnSignal(parts, { onStop: (line) => console.log(line) });
