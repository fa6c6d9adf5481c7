import { z } from 'zod';
import { normalizeApiBaseUrl, trimTrailingSlashes } from './api-base-url';
import { processSingleton } from '@/lib/process-singleton';
import { bool, DEFAULT_AUDIENCE, duration, int, optionalBool, optionalString, secondsList, url } from './env-fields';
import { checkOidc, ZOidcFields } from './env-oidc';
import { checkTuning, ZTuningFields } from './env-tuning';

// Every setting of the app, parsed once. Nothing else reads process.env.
// A bad value stops the start with one line naming the variable (see formatEnvError).

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

/**
 * The admin password and sandbox client secret earlier releases used when none was set, published in
 * their README: refused as settings. Unset, both are generated at the first start (lib/console/initial-credentials.ts).
 */
export const PUBLISHED_CREDENTIALS = { CONSOLE_ADMIN_PASSWORD: 'console-admin-123', SANDBOX_CLIENT_SECRET: 'sandbox-secret-change-me' } as const;

/** A secret the operator may set, never the published one: unset, the first start generates one. */
const ownSecret = (key: keyof typeof PUBLISHED_CREDENTIALS, min: number) =>
  optionalString.pipe(
    z
      .string()
      .min(min, { message: `must be at least ${min} characters` })
      .refine((v) => v !== PUBLISHED_CREDENTIALS[key], {
        message:
          'is the published default of earlier releases, which anyone may know: choose another, or leave it unset to have one generated at the first start',
      })
      .optional(),
  );
export { DEFAULT_AUDIENCE } from './env-fields';

export const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(3000, 1, 65535),
    HOST: optionalString, // interface to listen on (scripts/server.mjs); loopback (127.0.0.1 and ::1) by default
    TRUST_PROXY: bool(false), // keep a proxy's X-Forwarded-For chain instead of the peer address
    PUBLIC_URL: url.optional(),
    DATA_DIR: z.string().min(1).default('./.data'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: 'must start with postgres:// or postgresql://' })
        .optional(),
    ),
    // service
    SERVICE_MODE: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
    SANDBOX_CLIENT_SECRET: ownSecret('SANDBOX_CLIENT_SECRET', 12), // unset: generated at the first start, kept in the database
    DELIVERY_RETRY_SCHEDULE: secondsList.default([5, 300, 1800, 7200, 18000, 36000, 36000]),
    DELIVERY_TIMEOUT_MS: int(15000, 100, 120000),
    // Deliveries, alert targets and forwards to loopback and private addresses: unset, allowed in
    // development and the tests, refused under NODE_ENV=production (npm start); the banner says which.
    // This app's own receivers (/ingest/ under PUBLIC_URL or CONSOLE_PUBLIC_URL) are reached either way.
    DELIVERY_ALLOW_PRIVATE: optionalBool,
    DELIVERY_DISABLE_AFTER_MS: int(5 * 24 * 3600 * 1000, 1000, 365 * 24 * 3600 * 1000),
    WORKER_IN_PROCESS: bool(true),
    // `npm run worker` answers GET /health and GET /ready on this port (on HOST) when set; off by default.
    WORKER_HEALTH_PORT: optionalString.pipe(
      z
        .string()
        .regex(/^\d{1,5}$/, { message: 'must be a port number' })
        .transform(Number)
        .refine((n) => n >= 1 && n <= 65535, { message: 'must be a port number (1-65535)' })
        .optional(),
    ),
    // GET /metrics (Prometheus) is served only when set, to requests bearing it.
    METRICS_TOKEN: optionalString.pipe(
      z.string().min(16, { message: 'must be at least 16 characters' }).regex(/^\S+$/, { message: 'must not contain spaces' }).optional(),
    ),
    // OpenTelemetry traces over OTLP (lib/telemetry): on when the endpoint is set (the standard OTel
    // variable; the SDK reads the others itself, OTEL_EXPORTER_OTLP_PROTOCOL in env-tuning.ts).
    OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
    // Alert e-mail (a rule's mailto: target): the SMTP server, smtp(s)://user:pass@host:port, and the sender.
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, { message: 'must be an smtp:// or smtps:// URL' })
        .optional(),
    ),
    ALERT_EMAIL_FROM: z
      .string()
      .trim()
      .regex(/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, { message: 'must be an address, or Name <address>' })
      .default('Giving Connect Console <alerts@localhost>'),
    // The day of the reconciliation (/reconciliation): an IANA time zone such as America/New_York.
    CONSOLE_TIME_ZONE: z.string().trim().default('UTC').refine(isTimeZone, { message: 'must be an IANA time zone name such as UTC or America/New_York' }),
    // Retention (lib/service/retention, lib/console/retention): message payloads and attempts' response
    // bodies, then the rows themselves (an unresolved delivery keeps its bodies up to RETENTION_HOLD_MAX).
    MESSAGE_PAYLOAD_RETENTION: duration('90d'),
    MESSAGE_RETENTION: duration('365d'),
    // console
    RECEIPT_BODY_RETENTION: duration('30d'),
    RECEIPT_RETENTION: duration('365d'),
    // Archive before purge: with a directory, every body either half's purge takes is first appended to
    // daily gzip NDJSON files there, with a manifest (lib/db/archive/). Unset: purged bodies are gone.
    ARCHIVE_DIR: optionalString,
    // Scheduled backups of the embedded store (lib/db/backup/schedule.ts): with a directory, a backup
    // every BACKUP_EVERY into it (written whole, then renamed), the newest BACKUP_KEEP (tuning) kept.
    BACKUP_DIR: optionalString,
    BACKUP_EVERY: duration('24h'),
    CONSOLE_PUBLIC_URL: url.optional(),
    // More names this app is reached under (a proxy's public name), besides PUBLIC_URL's and CONSOLE_PUBLIC_URL's:
    // `host[:port]`, comma-separated. The app answers only to those, loopback names and IP addresses (lib/http/allowed-hosts.ts).
    CONSOLE_RECEIVER_HOSTS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, { message: 'must be host or host:port names, comma-separated' }))),
    CONSOLE_ADMIN_EMAIL: z.email({ message: 'must be an email address' }).default('admin@example.org'),
    CONSOLE_ADMIN_PASSWORD: ownSecret('CONSOLE_ADMIN_PASSWORD', 8), // unset: a one-time password generated at the first start
    SESSION_SECRET: optionalString.pipe(z.string().min(32, { message: 'must be at least 32 characters' }).optional()),
    CONNECT_API_BASE_URL: url.optional(),
    CONNECT_CLIENT_ID: optionalString,
    CONNECT_CLIENT_SECRET: optionalString,
    PRODUCTION_API_BASE_URL: url.optional(),
    PRODUCTION_CLIENT_ID: optionalString,
    PRODUCTION_CLIENT_SECRET: optionalString,
    // single sign-on for the console's staff (OpenID Connect): lib/env-oidc.ts, docs/GUIDE.md "Single sign-on"
    ...ZOidcFields,
    // internal tuning: lib/env-tuning.ts (not in .env.example; bounds for production, looser for the test harness)
    ...ZTuningFields,
  })
  .superRefine(checkOidc)
  .superRefine(checkTuning)
  .refine((e) => e.HTTP_REQUEST_TIMEOUT_MS >= e.HTTP_HEADERS_TIMEOUT_MS, {
    path: ['HTTP_REQUEST_TIMEOUT_MS'],
    message: 'must be at least HTTP_HEADERS_TIMEOUT_MS (the headers are part of the request)',
  })
  .transform((e) => {
    const publicUrl = trimTrailingSlashes(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
    const apiBase = normalizeApiBaseUrl(e.CONNECT_API_BASE_URL ?? publicUrl);
    // The console talks to the service of this very app: then, and only then, its audience is that service's.
    const embedded = e.SERVICE_MODE === 'on' && apiBase === publicUrl;
    const productionBase = e.PRODUCTION_API_BASE_URL && normalizeApiBaseUrl(e.PRODUCTION_API_BASE_URL);
    return {
      ...e,
      DELIVERY_ALLOW_PRIVATE: e.DELIVERY_ALLOW_PRIVATE ?? e.NODE_ENV !== 'production',
      PUBLIC_URL: publicUrl,
      TOKEN_ISSUER: e.TOKEN_ISSUER ?? `${publicUrl}/`,
      CONSOLE_PUBLIC_URL: trimTrailingSlashes(e.CONSOLE_PUBLIC_URL ?? publicUrl),
      CONNECT_API_BASE_URL: apiBase,
      CONNECT_AUTH_URL: trimTrailingSlashes(e.CONNECT_AUTH_URL ?? apiBase),
      CONNECT_API_AUDIENCE: e.CONNECT_API_AUDIENCE ?? (embedded ? e.CONNECT_AUDIENCE : DEFAULT_AUDIENCE),
      CONNECT_CLIENT_ID: e.CONNECT_CLIENT_ID ?? e.SANDBOX_CLIENT_ID,
      // Unset both: the sandbox client's generated secret, read from the database (connect-api/environments.ts).
      CONNECT_CLIENT_SECRET: e.CONNECT_CLIENT_SECRET ?? e.SANDBOX_CLIENT_SECRET,
      PRODUCTION_API_BASE_URL: productionBase,
      PRODUCTION_AUTH_URL: productionBase ? trimTrailingSlashes(e.PRODUCTION_AUTH_URL ?? productionBase) : e.PRODUCTION_AUTH_URL,
    };
  });

export type TEnv = z.output<typeof ZEnv>;

/** One line per bad variable: `DELIVERY_TIMEOUT_MS must be a whole number (got "abc")`. */
export function formatEnvError(error: z.ZodError, source: Record<string, string | undefined>): string {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? 'environment');
      const got = source[key];
      // A secret's value is never printed (a start log is often shared).
      const shown = got === undefined ? '' : /SECRET|PASSWORD|SMTP_URL/.test(key) ? ` (got ${got.length} characters)` : ` (got ${JSON.stringify(got)})`;
      return `Invalid configuration: ${key} ${issue.message}${shown}`;
    })
    .join('\n');
}

export function parseEnv(source: Record<string, string | undefined> = process.env): TEnv {
  const result = ZEnv.safeParse(source);
  if (!result.success) {
    const message = formatEnvError(result.error, source);
    const err = new Error(message);
    err.name = 'ConfigError';
    throw err;
  }
  return result.data;
}

const globalForEnv = processSingleton('env', (): { env?: TEnv } => ({}));

/** The parsed settings; on a bad value the process prints one line and exits. */
function loadEnv(): TEnv {
  if (globalForEnv.env) return globalForEnv.env;
  try {
    globalForEnv.env = parseEnv();
    return globalForEnv.env;
  } catch (err) {
    if (err instanceof Error && err.name === 'ConfigError' && typeof process.exit === 'function') {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export const env: TEnv = new Proxy({} as TEnv, {
  get: (_t, key: string) => loadEnv()[key as keyof TEnv],
});

/** Whether `key` was given in the environment rather than left to its default (the retention page says where a value comes from). */
export function isSetInEnv(key: keyof TEnv): boolean {
  const v = process.env[key];
  return v !== undefined && v !== '';
}
