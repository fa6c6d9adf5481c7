// The delivery worker on its own: `npm run worker`. Any number can share one PostgreSQL database
// (DATABASE_URL); the app then runs with WORKER_IN_PROCESS=false. Stops cleanly on SIGTERM/SIGINT
// (lib/process-runner.ts, as the app's server does).
import '../lib/load-env';
import { env } from '@/lib/env';
import { openProcess, stopOnSignal } from '@/lib/process-runner';
import { startWorker, stopWorker } from '@/lib/service/delivery/worker';

const { store } = await openProcess({
  lockedHint:
    'The embedded store belongs to one process: the app already delivers webhooks itself ' +
    '(WORKER_IN_PROCESS=true). Standalone workers need a shared PostgreSQL database: set DATABASE_URL.',
});
const id = await startWorker();
const where = store.startsWith('embedded') ? `${store} (this process only)` : store;
console.log(`delivery worker ${id} started: ${where}, concurrency ${env.DELIVERY_CONCURRENCY} (${env.DELIVERY_ENDPOINT_CONCURRENCY} per endpoint), woken by new deliveries, fallback poll ${env.DELIVERY_POLL_MS} ms`);
stopOnSignal([{ name: `delivery worker ${id}`, stop: (graceMs) => stopWorker({ graceMs }) }], { onStop: (line) => console.log(line) });
