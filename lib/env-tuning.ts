import { z } from 'zod';
import { DEFAULT_AUDIENCE, bool, duration, int, optionalString, url } from './env-fields';

// Internal tuning of lib/env.ts: settings with safe defaults that someone deploying the app need not
// read (they are not in .env.example nor OPERATIONS.md's table), overridable for a measured reason.
// Each is named with what it tunes. Some of them, and some operator settings, have a floor for a
// running deployment (PRODUCTION_FLOORS) that only the test harness may go under: tests/helpers/app.ts
// sets TEST_HARNESS=1 so that a test can evaluate alerts every 200 ms or disable a webhook after 20 s.
//
//   HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS   a request's headers / whole request within this, else 408 (scripts/server.mjs)
//   HTTP_KEEP_ALIVE_TIMEOUT_MS                         an idle keep-alive connection closed after this (above a proxy's usual 60 s)
//   HTTP_MAX_CONNECTIONS_PER_ADDRESS                   connections from one address beyond this refused (0: no limit)
//   TOKEN_ISSUER                                       the `iss` of every token: PUBLIC_URL + '/' unless instances differ in PUBLIC_URL
//   CONNECT_AUDIENCE, SANDBOX_ACCOUNT, SANDBOX_CLIENT_ID   the embedded service's audience, sandbox account and client
//   CONNECT_AUTH_URL, CONNECT_API_AUDIENCE, PRODUCTION_AUTH_URL, PRODUCTION_AUDIENCE   when a remote service's token
//                                                      endpoint or audience differ from what its base URL implies
//   DELIVERY_LEASE_MS, DELIVERY_POLL_MS                a claimed delivery's lease; the worker's poll when no commit woke it
//   DELIVERY_CONCURRENCY, DELIVERY_ENDPOINT_CONCURRENCY   attempts in flight per worker, and per endpoint (at most half the worker's)
//   SHUTDOWN_GRACE_MS                                  how long a stopping process lets deliveries in flight finish
//   ALERT_EVAL_MS, ALERT_REPEAT                        how often alert rules are evaluated; a firing alert re-sent
//   SEARCH_BUDGET_MS                                   payload search stops after this much work, answering `partial`
//   RECEIPT_STREAM_HEARTBEAT_MS                        a quiet receipt stream's comment line (npm run listen)
//   RETENTION_HOLD_MAX, RETENTION_BATCH_ROWS           an unresolved delivery's bodies kept at most this; rows per purge statement
//   BACKUP_KEEP                                        scheduled backups kept
//   PARTITION_INTERVAL                                 day, week or month: a partitioned table's partitions (lib/db/partitions/interval.ts)
//   OTEL_EXPORTER_OTLP_PROTOCOL                        traces as http/protobuf (the OTel default) or http/json
//   OTEL_DELIVERY_TRACEPARENT                          true: with traces on, each delivery carries its attempt's W3C traceparent

export const ZTuningFields = {
  HTTP_HEADERS_TIMEOUT_MS: int(10_000, 1000, 600_000),
  HTTP_REQUEST_TIMEOUT_MS: int(30_000, 1000, 3_600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(65_000, 1000, 600_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: int(256, 0, 1_000_000),
  TOKEN_ISSUER: optionalString.pipe(z.string().max(500).optional()),
  CONNECT_AUDIENCE: z.string().min(1).default(DEFAULT_AUDIENCE),
  SANDBOX_ACCOUNT: z.string().min(1).max(100).default('sandbox'),
  SANDBOX_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{3,128}$/, { message: 'must be 3-128 of A-Z a-z 0-9 _ . -' })
    .default('sandbox-client'),
  CONNECT_AUTH_URL: url.optional(),
  CONNECT_API_AUDIENCE: optionalString,
  PRODUCTION_AUTH_URL: url.optional(),
  PRODUCTION_AUDIENCE: optionalString,
  DELIVERY_LEASE_MS: int(60000, 1000, 3600000),
  DELIVERY_POLL_MS: int(2000, 50, 60000),
  DELIVERY_CONCURRENCY: int(32, 1, 256),
  DELIVERY_ENDPOINT_CONCURRENCY: int(8, 1, 256),
  SHUTDOWN_GRACE_MS: int(17000, 0, 600000),
  ALERT_EVAL_MS: int(30000, 50, 3600000),
  ALERT_REPEAT: duration('4h'),
  SEARCH_BUDGET_MS: int(1000, 1, 60_000),
  RECEIPT_STREAM_HEARTBEAT_MS: int(15_000, 100, 45_000),
  RETENTION_HOLD_MAX: duration('90d'),
  RETENTION_BATCH_ROWS: int(1000, 10, 100_000),
  BACKUP_KEEP: int(7, 1, 10_000),
  // Unset: day on PostgreSQL, week on the embedded store (lib/db/partitions/interval.ts says why).
  PARTITION_INTERVAL: z.enum(['day', 'week', 'month'], { message: 'must be day, week or month' }).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json'], { message: 'must be http/protobuf or http/json (gRPC is not bundled)' })
    .default('http/protobuf'),
  OTEL_DELIVERY_TRACEPARENT: bool(false),
  // Set by the test harness only (tests/helpers/app.ts): the floors below do not apply.
  TEST_HARNESS: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
};

export const TUNING_KEYS = Object.keys(ZTuningFields);

const S = 1000;
const H = 3600 * S;
/** The least value a running deployment may use (milliseconds), with why: below it only under TEST_HARNESS=1. */
export const PRODUCTION_FLOORS: Record<string, number> = {
  ALERT_EVAL_MS: 1000,
  ALERT_REPEAT: 60 * S,
  DELIVERY_POLL_MS: 250,
  DELIVERY_LEASE_MS: 5000,
  DELIVERY_TIMEOUT_MS: 1000,
  DELIVERY_DISABLE_AFTER_MS: 60 * S,
  SEARCH_BUDGET_MS: 50,
  RECEIPT_STREAM_HEARTBEAT_MS: 1000,
  MESSAGE_PAYLOAD_RETENTION: H,
  MESSAGE_RETENTION: H,
  RECEIPT_BODY_RETENTION: H,
  RECEIPT_RETENTION: H,
  RETENTION_HOLD_MAX: H,
  BACKUP_EVERY: 60 * S,
};

const shown = (key: string, ms: number) => (key.endsWith('_MS') ? String(ms) : ms % H === 0 ? `${ms / H}h` : `${ms / S}s`);

/** Values under their production floor, each named (the harness excepted). */
export function checkTuning(e: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (e.TEST_HARNESS === '1') return;
  for (const [key, floor] of Object.entries(PRODUCTION_FLOORS)) {
    const value = e[key];
    if (typeof value === 'number' && value < floor) ctx.addIssue({ code: 'custom', path: [key], message: `must be at least ${shown(key, floor)}` });
  }
}
