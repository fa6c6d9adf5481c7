import fs from 'node:fs';
import path from 'node:path';
import { driverRows } from '@/lib/db/query';
import { MIGRATIONS_FOLDER } from '@/lib/db/drivers/handle';
import { isStoreUnavailable, STORE_RETRY_AFTER_S, unavailableReason } from '@/lib/db/store-availability';
import { problemBody } from '@/lib/http/errors';
import { heartbeatStates } from './heartbeats';

// Readiness, as a load balancer or a container's health check asks it (GET /api/ready, the
// worker's WORKER_HEALTH_PORT): one round trip to the store, the migrations this release ships all
// applied, and every loop of this process beating. Liveness (GET /api/health) stays without I/O.

const ROUND_TRIP_TIMEOUT_MS = 2000;

export type TCheck = { ok: boolean; detail: string };
export type TReadiness = { ready: boolean; checks: Record<string, TCheck> };

/** The `when` of the newest migration this release ships (drizzle records it as `created_at`). */
function newestMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function storeChecks(): Promise<Record<string, TCheck>> {
  let latest: number;
  try {
    const [row] = await withTimeout(
      driverRows<{ latest: string | null }>('select max(created_at)::text as latest from drizzle.__drizzle_migrations', []),
      ROUND_TRIP_TIMEOUT_MS,
    );
    latest = Number(row?.latest ?? 0);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '42P01' || code === '3F000') {
      return { store: { ok: true, detail: 'answered' }, migrations: { ok: false, detail: 'no migrations recorded' } };
    }
    const why = isStoreUnavailable(err) || /^no answer/.test((err as Error).message) ? unavailableReason(err) : 'the round trip failed';
    return { store: { ok: false, detail: `unreachable (${why})` }, migrations: { ok: false, detail: 'unknown: the store did not answer' } };
  }
  const wanted = newestMigration();
  return {
    store: { ok: true, detail: 'answered' },
    migrations:
      latest >= wanted ? { ok: true, detail: 'applied' } : { ok: false, detail: `behind this release (newest applied ${latest}, expected ${wanted})` },
  };
}

/** Whether this process can serve: the store answers, its schema is this release's, its loops run. */
export async function checkReadiness(): Promise<TReadiness> {
  const checks = await storeChecks();
  for (const beat of heartbeatStates()) {
    checks[beat.name] = beat.ok ? { ok: true, detail: `ticked ${beat.silentMs} ms ago` } : { ok: false, detail: `silent for ${beat.silentMs} ms` };
  }
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}

/** "not ready: store unreachable (ECONNREFUSED …)": the failing parts in one sentence. */
export function describeNotReady(readiness: TReadiness): string {
  const failing = Object.entries(readiness.checks).filter(([, c]) => !c.ok);
  return `not ready: ${failing.map(([name, c]) => `${name} ${c.detail}`).join('; ')}`;
}

export type TReadinessAnswer = { status: 200 | 503; headers: Record<string, string>; body: string };

/** The HTTP answer: 200 and each check, or a 503 problem naming the failing parts (and each check). */
export async function readinessAnswer(): Promise<TReadinessAnswer> {
  const readiness = await checkReadiness();
  const checks = Object.fromEntries(Object.entries(readiness.checks).map(([name, c]) => [name, c.detail]));
  if (readiness.ready) {
    return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ status: 'ready', checks }) };
  }
  const problem = { ...problemBody(503, describeNotReady(readiness)), checks };
  return {
    status: 503,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'retry-after': String(STORE_RETRY_AFTER_S) },
    body: JSON.stringify(problem),
  };
}
