// The bench's knobs, read once from BENCH_* variables. The defaults finish a PGlite run in a few
// minutes on 2 cores; raise them for steadier figures.

import { SCALE_SEEDS } from './seed-scale';

function int(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return n;
}

function list<T extends string>(name: string, allowed: readonly T[], fallback: T[]): T[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((s) => !allowed.includes(s as T));
  if (bad.length) throw new Error(`${name}: unknown ${bad.join(', ')} (use ${allowed.join(', ')})`);
  return items as T[];
}

export const STORES = ['pglite', 'postgres'] as const;
export type TStore = (typeof STORES)[number];
/** `workers` (two `npm run worker` processes vs one) and `peak` (a capped webhook's burst beside steady load) run on PostgreSQL only. */
export const SECTIONS = ['ingest', 'delivery', 'timeline', 'scale', 'year', 'purge', 'search', 'workers', 'peak'] as const;
/** Sections that start their own app on PostgreSQL rather than run once per store. */
export const POSTGRES_SECTIONS: readonly TSection[] = ['workers', 'peak'];
export type TSection = (typeof SECTIONS)[number];

/** The PostgreSQL server fresh databases are made on (and dropped from); never used itself. */
export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';

export const CONFIG = {
  stores: list('BENCH_STORES', STORES, PG_ADMIN_URL ? ['pglite', 'postgres'] : ['pglite']),
  sections: list('BENCH_SECTIONS', SECTIONS, [...SECTIONS]),
  ingest: {
    /** Requests per target per round. */
    requests: int('BENCH_REQUESTS', 3000),
    /** Rounds alternating bare one-INSERT, bare group commit and the app. */
    rounds: int('BENCH_ROUNDS', 2),
    connections: int('BENCH_CONNECTIONS', 64),
    bodyBytes: int('BENCH_BODY_BYTES', 2048),
    /** Upper bound on one target's round, whatever the count. */
    maxSeconds: int('BENCH_INGEST_SECONDS', 90),
    /** Largest multi-row INSERT of the group-commit baseline. */
    maxBatch: int('BENCH_GROUP_MAX_BATCH', 500),
  },
  delivery: {
    latencyGrants: int('BENCH_LATENCY_GRANTS', 40),
    fanoutGrants: int('BENCH_FANOUT_GRANTS', 100),
    fanoutWebhooks: int('BENCH_FANOUT_WEBHOOKS', 10),
    /** Concurrent POST /v1/grants while measuring grant creation and end-to-end throughput. */
    grantConcurrency: int('BENCH_GRANT_CONCURRENCY', 16),
    /** In-flight POSTs of the bare undici loop: the app's default DELIVERY_CONCURRENCY. */
    sendConcurrency: int('BENCH_SEND_CONCURRENCY', 16),
    maxSeconds: int('BENCH_DELIVERY_SECONDS', 120),
    /** Grants queued (× fanoutWebhooks) for the workers section to drain. */
    workerGrants: int('BENCH_WORKER_GRANTS', 1000),
    /** The workers section runs again with receivers that answer after this many ms (0: not). */
    workerReceiverMs: int('BENCH_WORKER_RECEIVER_MS', 50, 0),
  },
  peak: {
    /** Webhooks in all: one capped, the others on a steady load (issue 53.6: 20). */
    webhooks: int('BENCH_PEAK_WEBHOOKS', 20, 2),
    /** The capped webhook's rateLimit, deliveries per second (20). */
    cap: int('BENCH_PEAK_CAP', 20),
    /** Grants for the capped webhook's account over the burst (5,000 in 60 s). */
    grants: int('BENCH_PEAK_GRANTS', 5000),
    burstSeconds: int('BENCH_PEAK_BURST_SECONDS', 60),
    /** Grants per second to the other webhooks' account, alone and during the burst. */
    steadyRate: int('BENCH_PEAK_STEADY_RATE', 2),
    baselineSeconds: int('BENCH_PEAK_BASELINE_SECONDS', 30),
    /** `npm run worker` processes beside the app (2: the cap must hold across processes). */
    workers: int('BENCH_PEAK_WORKERS', 2),
    /** The second run pauses the capped webhook this long, then resumes it. */
    pauseSeconds: int('BENCH_PEAK_PAUSE_SECONDS', 30),
    /** 1: every 5 s the capped webhook's queue as the store holds it, the workers' logs, and where the time went (a diagnosis aid). */
    trace: int('BENCH_PEAK_TRACE', 0, 0) > 0,
  },
  purge: {
    /** Old receipts the console's retention purges while ingest is measured (issue 26: 1M). */
    rows: int('BENCH_PURGE_ROWS', 1_000_000),
    /** Ingest requests per round (idle, then during the purge). */
    requests: int('BENCH_PURGE_REQUESTS', 3000),
  },
  search: {
    /** Receipts over 30 days the payload search reads a 7-day window of (issue 27: 1M). */
    rows: int('BENCH_SEARCH_ROWS', 1_000_000),
    /** Signed ingests per round, with and without the search indexes. */
    requests: int('BENCH_SEARCH_REQUESTS', 3000),
    runs: int('BENCH_SEARCH_RUNS', 10),
  },
  timeline: {
    small: int('BENCH_TIMELINE_SMALL', 100),
    rows: int('BENCH_TIMELINE_ROWS', 100_000),
    runs: int('BENCH_TIMELINE_RUNS', 20),
  },
  scale: {
    webhooks: int('BENCH_SCALE_WEBHOOKS', 20, 2),
    small: int('BENCH_SCALE_SMALL', 100),
    /** Grants added for the second reading (each to every webhook). */
    grants: int('BENCH_SCALE_GRANTS', 100_000),
    runs: int('BENCH_SCALE_RUNS', 10),
    /** How the week's failures are seeded (seed-scale.ts): spread (issue 42.4b) or regular (the seed before). */
    seed: list('BENCH_SCALE_SEED', SCALE_SEEDS, ['spread'])[0],
  },
  year: {
    /** Days seeded and simulated (issue 52.6: 60); the first `retentionDays` at once, then one a day with a retention pass each. */
    days: int('BENCH_YEAR_DAYS', 38, 2),
    /** Row retention in days (30). */
    retentionDays: int('BENCH_YEAR_RETENTION_DAYS', 30),
    /** Grants a day, each to every webhook (issue 52.6: ~3,650 on PostgreSQL, ~730 embedded for 10M / 2M attempt + receipt rows in 60 days). */
    grantsPerDay: int('BENCH_YEAR_GRANTS_PER_DAY', 100),
    webhooks: int('BENCH_YEAR_WEBHOOKS', 20, 2),
    /** Signed ingests of the idle round; the round during the drop runs until the retention pass ends. */
    requests: int('BENCH_YEAR_REQUESTS', 3000),
    /**
     * Signed ingests a second, on a schedule (an open loop), idle and through the drops; 0: as fast as they are answered. Not
     * flat out: on two cores a closed loop of 64 connections keeps the box busy, so every millisecond of the pass's CPU is
     * taken from ingest by construction and its p99 measures the pass's share of the CPU, not what the drop holds up. 500/s
     * is a fifth of what this box answers flat out, and hundreds of times the seeded platform's peak.
     */
    ingestRate: int('BENCH_YEAR_INGEST_RATE', 500, 0),
    /** 1: the store's sessions sampled through the reads of the views, and the views read at size at once and after a minute idle (year-trace.ts). */
    trace: int('BENCH_YEAR_TRACE', 0, 0) > 0,
  },
};
