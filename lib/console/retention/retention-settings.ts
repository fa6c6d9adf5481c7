import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { formatDuration, parseDuration } from '@/lib/duration';
import { env, isSetInEnv } from '@/lib/env';
import { ApiError, validationError } from '@/lib/http/errors';
import { processSingleton } from '@/lib/process-singleton';
import { wakePurgeLoop } from '@/lib/db/purge-loop';
import type { TLease } from '@/lib/db/take-lease';

// The console's retention settings in effect, and where each comes from: `admin` (set on /retention,
// stored in console.settings, shared by every instance), else `env` (the environment), else `default`.
// The service's two (MESSAGE_PAYLOAD_RETENTION, MESSAGE_RETENTION) belong to the service: the account
// this console is connected to may set its own there (EXT /v1/retention, service-retention.ts).

export const CONSOLE_KEYS = ['RECEIPT_BODY_RETENTION', 'RECEIPT_RETENTION', 'RETENTION_HOLD_MAX'] as const;
/** The service's two, which the console changes for its account through the API (service-retention.ts). */
export const SERVICE_KEYS = ['MESSAGE_PAYLOAD_RETENTION', 'MESSAGE_RETENTION'] as const;
export type TConsoleKey = (typeof CONSOLE_KEYS)[number];
/** default · env · admin (the console's); account (the service's: the account's own value over the deployment's default). */
export type TSource = 'default' | 'env' | 'admin' | 'account';
/** `defaultValue`: what null returns a setting to (the service's; the console's is the environment's). */
export type TSetting = { key: string; value: string; ms: number; source: TSource; editable: boolean; defaultValue?: string };
export type TConsoleRetention = Record<TConsoleKey, number>;

const PREFIX = 'retention.';
/** The console purge's loop and its lease, in the console's own schema (purge-console.ts). */
export const CONSOLE_PURGE: TLease = { table: 'console.leases', name: 'retention-console' };
/** Bounds of an admin's value: a second (tests use seconds) to ten years. */
export const MIN_MS = 1000;
export const MAX_MS = 3650 * 86_400_000;
const CACHE_MS = 1000;

const cache = processSingleton('retention-settings', () => ({ at: 0, stored: new Map<string, string>() }));

async function stored(): Promise<Map<string, string>> {
  if (Date.now() - cache.at < CACHE_MS) return cache.stored;
  const db = await getDb();
  const rows = await db
    .select({ key: schema.settings.key, value: schema.settings.value })
    .from(schema.settings)
    .where(
      inArray(
        schema.settings.key,
        CONSOLE_KEYS.map((k) => PREFIX + k),
      ),
    );
  cache.stored = new Map(rows.map((r) => [r.key.slice(PREFIX.length), r.value]));
  cache.at = Date.now();
  return cache.stored;
}

const fromEnv = (key: TConsoleKey): TSetting => ({
  key,
  value: formatDuration(env[key]),
  ms: env[key],
  source: isSetInEnv(key) ? 'env' : 'default',
  editable: true,
});

/** What this process cached of the stored settings goes: the next read is the store's (changed here or by another process). */
export function forgetStoredRetention(): void {
  cache.at = 0;
}

/** The console's retention settings as they are now. */
export async function retentionSettings(): Promise<TSetting[]> {
  const mine = await stored();
  const consoleOnes = CONSOLE_KEYS.map((key): TSetting => {
    const ms = parseDuration(mine.get(key) ?? '');
    return ms === null ? fromEnv(key) : { key, value: formatDuration(ms), ms, source: 'admin', editable: true };
  });
  return consoleOnes;
}

/** The console's purge settings in effect, in ms (read each pass by the purge; cached a second). */
export async function consoleRetention(): Promise<TConsoleRetention> {
  const all = await retentionSettings();
  return Object.fromEntries(CONSOLE_KEYS.map((k) => [k, all.find((s) => s.key === k)!.ms])) as TConsoleRetention;
}

export const ZDurationText = z
  .string({ message: 'must be a duration such as 90d, 12h, 30m or 45s (or null for the environment’s value)' })
  .max(20)
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90d, 12h, 30m or 45s' });
    else if (ms < MIN_MS || ms > MAX_MS) ctx.addIssue({ code: 'custom', message: `must be between 1s and ${formatDuration(MAX_MS)}` });
    return ms ?? 0;
  })
  .nullable()
  .optional();

/** PATCH /api/retention: any of the console's three; null returns one to the environment's value. */
export const ZRetentionPatch = z.strictObject(Object.fromEntries(CONSOLE_KEYS.map((k) => [k, ZDurationText])) as Record<TConsoleKey, typeof ZDurationText>);
export type TRetentionPatch = z.output<typeof ZRetentionPatch>;

/** The body of PATCH /api/retention, or a 400 naming each wrong field (a service setting: where it is set). */
export function parseRetentionPatch(body: unknown): TRetentionPatch {
  const named = body && typeof body === 'object' ? SERVICE_KEYS.filter((k) => k in body) : [];
  if (named.length) {
    const message = 'is the service’s setting for this account: change it with PATCH /api/retention/service';
    throw new ApiError('bad_request', `Invalid body: ${named[0]}: ${message}.`, { errors: named.map((path) => ({ path, message })) });
  }
  const result = ZRetentionPatch.safeParse(body, { reportInput: true });
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}

/** Stores the patch (after checking that body retention stays within row retention); answers the settings now. */
export async function updateRetention(patch: TRetentionPatch): Promise<{ settings: TSetting[]; changed: Record<string, string | null> }> {
  const now = await consoleRetention();
  const after = { ...now };
  const changed: Record<string, string | null> = {};
  for (const key of CONSOLE_KEYS) {
    const v = patch[key];
    if (v === undefined) continue;
    after[key] = v === null ? env[key] : v;
    changed[key] = v === null ? null : formatDuration(v);
  }
  if (after.RECEIPT_BODY_RETENTION > after.RECEIPT_RETENTION) {
    const path = patch.RECEIPT_BODY_RETENTION !== undefined ? 'RECEIPT_BODY_RETENTION' : 'RECEIPT_RETENTION';
    throw validationError(
      new z.ZodError([
        {
          code: 'custom',
          path: [path],
          message: `must keep bodies no longer than rows (RECEIPT_BODY_RETENTION ${formatDuration(after.RECEIPT_BODY_RETENTION)} > RECEIPT_RETENTION ${formatDuration(after.RECEIPT_RETENTION)})`,
          input: undefined,
        },
      ]),
      'body',
    );
  }
  const db = await getDb();
  await db.transaction(async (tx) => {
    for (const [key, value] of Object.entries(changed)) {
      if (value === null) await tx.delete(schema.settings).where(sql`${schema.settings.key} = ${PREFIX + key}`);
      else {
        await tx
          .insert(schema.settings)
          .values({ key: PREFIX + key, value })
          .onConflictDoUpdate({ target: schema.settings.key, set: { value } });
      }
    }
  });
  forgetStoredRetention();
  // The purge reads the settings at each pass; its next starts now, in whichever process runs it.
  await wakePurgeLoop(CONSOLE_PURGE);
  return { settings: await retentionSettings(), changed };
}
