import { startControlServer, stopControlServer } from '@/lib/cli/control-server';
import { startScheduledBackups, stopScheduledBackups } from '@/lib/db/backup/schedule';
import { startAlertLoop, stopAlertLoop } from '@/lib/console/alerts/alert-loop';
import { registerIngestHook } from '@/lib/console/ingest/ingest-node';
import { startConsolePurge, stopConsolePurge } from '@/lib/console/retention/purge-console';
import { checkEnvironment } from '@/lib/console/connect-api/check-environment';
import { ENVIRONMENT_NAMES, environmentConfig, environments, missingVariables } from '@/lib/console/connect-api/environments';
import { settleInitialCredentials, type TSettled } from '@/lib/console/initial-credentials';
import { ensureAdmin } from '@/lib/console/staff/users';
import { dbKind } from '@/lib/db/client';
import { registerTableGauges } from '@/lib/db/upkeep/table-gauges';
import { ensureReceiptPartitions } from '@/lib/console/receivers/receipt-partitions';
import { receiptPartitionStatus } from '@/lib/console/retention/receipt-partition-status';
import { env, isSetInEnv } from '@/lib/env';
import os from 'node:os';
import { firstWrites, openProcess, stopOnSignal } from '@/lib/process-runner';
import { upsertClient } from '@/lib/service/auth/clients';
import { currentSigningKey } from '@/lib/service/auth/signing-keys';
import { registerGrantFastPath } from '@/lib/service/grants/grant-fast-path';
import { registerQueueGauges } from '@/lib/service/delivery/queue-depth-gauge';
import { startWorker, stopWorker } from '@/lib/service/delivery/process-worker';
import { startFailingWarnings, stopFailingWarnings } from '@/lib/service/delivery/failing-warnings';
import { ensureServicePartitions, startServicePurge, stopServicePurge } from '@/lib/service/retention/purge-service';
import { addPartitionSource, registerPartitionGauges } from '@/lib/service/retention/partition-gauges';
import { startRollupBackfill, stopRollupBackfill } from '@/lib/service/stats/backfill-rollups';
import { startPayloadJsonBackfill, stopPayloadJsonBackfill } from '@/lib/service/messages/backfill-payload-json';
import { startBodyJsonBackfill, stopBodyJsonBackfill } from '@/lib/console/search/backfill-body-json';
import { stopTracing } from '@/lib/telemetry/tracing';

// What a server process does once at start: settings, database and migrations, bootstrap
// credentials, the in-process delivery worker and alert evaluator, a banner with what to use, and a check of every API
// the console talks to (after the banner, without holding up the start).

export async function boot(): Promise<void> {
  await openProcess();
  let credentials: TSettled = { generated: null, filed: null };
  await firstWrites(async () => {
    if (env.CONSOLE_ADMIN_PASSWORD) await ensureAdmin(env.CONSOLE_ADMIN_EMAIL, env.CONSOLE_ADMIN_PASSWORD);
    // What the settings leave unset: generated at the first start, found made at later ones.
    credentials = await settleInitialCredentials({
      admin: { email: env.CONSOLE_ADMIN_EMAIL, password: env.CONSOLE_ADMIN_PASSWORD },
      sandbox: env.SERVICE_MODE === 'on' ? { clientId: env.SANDBOX_CLIENT_ID, secret: env.SANDBOX_CLIENT_SECRET } : null,
      dataDir: env.DATA_DIR,
    });
    if (env.SERVICE_MODE === 'on') {
      await currentSigningKey();
      await upsertClient(env.SANDBOX_CLIENT_ID, (env.SANDBOX_CLIENT_SECRET ?? credentials.sandboxSecret)!, env.SANDBOX_ACCOUNT);
    }
  });
  registerIngestHook();
  if (env.SERVICE_MODE === 'on') registerGrantFastPath();
  // The CLI's way to the embedded store while this process holds it (users:add, backup, …).
  await startControlServer();
  await startScheduledBackups();
  // GET /metrics shows each table's dead rows and its last vacuum and analyze (the store's upkeep).
  registerTableGauges();
  // Receipts' partition of this interval opened and the next made, before this process's receiver writes (a store stopped over midnight).
  await ensureReceiptPartitions();
  // GET /metrics shows their partitions (gc_store_partitions{table="console.receipts"} …), as the service's attempts'.
  addPartitionSource('console.receipts', receiptPartitionStatus);
  if (env.SERVICE_MODE === 'on') {
    // Attempts' partitions a week ahead before this process writes one (its worker, a resend): a store stopped longer has none for now.
    await ensureServicePartitions();
    // GET /metrics shows the delivery queue, read from the database when scraped.
    registerQueueGauges();
    // And the partitions of its tables partitioned by time: how many, their span and size, the next drop.
    registerPartitionGauges();
    if (env.WORKER_IN_PROCESS) {
      await startWorker();
      startFailingWarnings();
      startRollupBackfill();
      startPayloadJsonBackfill();
      startServicePurge();
    }
  }
  // The console's alert rules and retention purge run beside the worker, the service on or off.
  if (env.WORKER_IN_PROCESS) {
    startAlertLoop();
    startConsolePurge();
    startBodyJsonBackfill();
  }
  stopOnSignal(
    [
      { name: 'delivery worker', stop: (graceMs) => stopWorker({ graceMs }) },
      { name: 'failing-webhook warnings', stop: () => stopFailingWarnings() },
      { name: 'alert evaluator', stop: () => stopAlertLoop() },
      { name: 'stats rollup backfill', stop: () => stopRollupBackfill() },
      { name: 'payload search backfills', stop: () => Promise.all([stopPayloadJsonBackfill(), stopBodyJsonBackfill()]) },
      { name: 'service retention purge', stop: () => stopServicePurge() },
      { name: 'console retention purge', stop: () => stopConsolePurge() },
      { name: 'control server', stop: () => stopControlServer() },
      { name: 'scheduled backups', stop: () => stopScheduledBackups() },
      // Last: what the parts above did in their last moments is sent too.
      { name: 'traces', stop: () => stopTracing() },
    ],
    { onStop: (line) => console.log(line) },
  );
  await printBanner(credentials);
  void checkEnvironments();
}

/** Where the generated credentials are, for a banner: the file, and its machine when it is another. */
function fileOf({ filed }: TSettled): string {
  if (!filed) return 'the database (generated at the first start)';
  return filed.host === os.hostname() ? filed.file : `${filed.file} on ${filed.host}`;
}

/** The banner's sign-in: a password generated now is printed this once; a set one or an earlier one is named, never shown. */
function signIn(c: TSettled): string {
  const made = c.generated?.admin;
  if (made?.replacedPublished)
    return `${made.email} / ${made.password}, a one-time password that replaced the published default of earlier releases (its sessions ended): the next sign-in asks for a new one`;
  if (made) return `${made.email} / ${made.password}, a one-time password: the first sign-in asks for a new one`;
  if (env.CONSOLE_ADMIN_PASSWORD) return `${env.CONSOLE_ADMIN_EMAIL} / <CONSOLE_ADMIN_PASSWORD>`;
  if (!c.filed?.admin) return env.CONSOLE_ADMIN_EMAIL;
  // Once its admin has chosen their own, the file's one-time password signs in no more: say so, not where it is.
  return c.firstPasswordSpent
    ? `${env.CONSOLE_ADMIN_EMAIL} with the password chosen at its first sign-in; the one-time one in ${fileOf(c)} is spent`
    : `${env.CONSOLE_ADMIN_EMAIL}: its one-time password is in ${fileOf(c)}`;
}

async function printBanner(c: TSettled): Promise<void> {
  const lines = [
    '',
    'Giving Connect Console is ready',
    `  console          ${env.PUBLIC_URL}/  (sign in as ${signIn(c)})`,
    `  store            ${(await dbKind()) === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  ];
  if (env.SERVICE_MODE === 'on') {
    lines.push(
      `  API base URL     ${env.PUBLIC_URL}/v1`,
      `  auth URL         ${env.PUBLIC_URL}  (POST ${env.PUBLIC_URL}/oauth/token)`,
      `  audience         ${env.CONNECT_AUDIENCE}`,
      `  token issuer     ${env.TOKEN_ISSUER}`,
      `  client_id        ${env.SANDBOX_CLIENT_ID}`,
      // One generated now is printed this once; one the operator chose is never logged.
      `  client_secret    ${c.generated?.sandboxSecret ?? (env.SANDBOX_CLIENT_SECRET ? '<SANDBOX_CLIENT_SECRET>' : `in ${fileOf(c)}`)}`,
    );
    lines.push(
      env.DELIVERY_ALLOW_PRIVATE
        ? `  deliveries       to any address, loopback and private ones too (DELIVERY_ALLOW_PRIVATE=true${isSetInEnv('DELIVERY_ALLOW_PRIVATE') ? '' : `, the default when NODE_ENV=${env.NODE_ENV}`})`
        : `  deliveries       to public addresses and this app's own receivers only (DELIVERY_ALLOW_PRIVATE=false${isSetInEnv('DELIVERY_ALLOW_PRIVATE') ? '' : ', the default of npm start'})`,
    );
  } else {
    lines.push('  service          off (SERVICE_MODE=off): this app is the console only');
  }
  const when = c.generated?.admin?.replacedPublished ? 'this start' : 'this first start';
  if (c.generated && c.filed) lines.push(`  credentials      generated at ${when} and written to ${c.filed.file} (mode 0600): later starts do not print them`);
  lines.push('  the console talks to');
  for (const { name } of environments()) {
    const config = environmentConfig(name);
    lines.push(
      config
        ? `    ${name.padEnd(15)}${config.baseUrl}/v1  (auth ${config.authUrl}, audience ${config.audience}, client_id ${config.clientId})`
        : `    ${name.padEnd(15)}not configured: set ${missingVariables(name).join(', ')}`,
    );
  }
  console.log(lines.join('\n') + '\n');
}

/** One token exchange per environment, one line each; a failure names the variable to fix and the app keeps serving. */
async function checkEnvironments(): Promise<void> {
  const ownOrigin = env.SERVICE_MODE === 'on' ? env.PUBLIC_URL : undefined;
  for (const name of ENVIRONMENT_NAMES) {
    if (!environments().some((e) => e.name === name)) continue;
    const { ok, line } = await checkEnvironment(name, { ownOrigin }).catch((err: Error) => ({
      ok: false,
      line: `Console ${name}: the check failed (${err.message}).`,
    }));
    (ok ? console.log : console.warn)(line);
  }
}
