import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { wakePurgeLoop } from '@/lib/db/purge-loop';
import type { TLease } from '@/lib/db/take-lease';
import { formatDuration } from '@/lib/duration';
import { env } from '@/lib/env';
import { validationError } from '@/lib/http/errors';
import type { TAccountRetention, TRetentionPatch } from './schemas';

// EXT /v1/retention: an account's own retention. The environment's MESSAGE_PAYLOAD_RETENTION and
// MESSAGE_RETENTION are the deployment's defaults; an account may set either for its own messages
// (service.account_retention; null returns it to the default). The purge (purge-service.ts) reads
// the overrides at each tick: the default over every account without one, one pass per account with one.

/** The service purge's loop and its lease, in the service's own schema (purge-service.ts). */
export const SERVICE_PURGE: TLease = { table: 'service.leases', name: 'retention-service' };

/** An account's overrides in ms (null: the default), as the purge reads them. */
export type TRetentionOverride = { accountId: string; payloadMs: number | null; rowsMs: number | null };

const fmt = (ms: number | null) => (ms === null ? null : formatDuration(ms));

function view(row: { messagePayloadRetentionMs: number | null; messageRetentionMs: number | null; updatedAt: Date } | undefined): TAccountRetention {
  const payload = row?.messagePayloadRetentionMs ?? null;
  const rows = row?.messageRetentionMs ?? null;
  return {
    effective: {
      messagePayloadRetention: formatDuration(payload ?? env.MESSAGE_PAYLOAD_RETENTION),
      messageRetention: formatDuration(rows ?? env.MESSAGE_RETENTION),
    },
    overrides: { messagePayloadRetention: fmt(payload), messageRetention: fmt(rows) },
    defaults: { messagePayloadRetention: formatDuration(env.MESSAGE_PAYLOAD_RETENTION), messageRetention: formatDuration(env.MESSAGE_RETENTION) },
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

async function read(accountId: string) {
  const db = await getDb();
  const [row] = await db.select().from(schema.accountRetention).where(eq(schema.accountRetention.accountId, accountId));
  return row;
}

/** GET /v1/retention: the account's effective values, its overrides and the defaults. */
export async function getAccountRetention(accountId: string): Promise<TAccountRetention> {
  return view(await read(accountId));
}

/** PATCH /v1/retention: stores the account's overrides (a 400 naming the field when payloads would outlive rows). */
export async function updateAccountRetention(accountId: string, patch: TRetentionPatch): Promise<TAccountRetention> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    // One writer per account at a time, so the check below sees what it stores over.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`retention:${accountId}`}, 0))`);
    const [now] = await tx.select().from(schema.accountRetention).where(eq(schema.accountRetention.accountId, accountId));
    const next = {
      messagePayloadRetentionMs: patch.messagePayloadRetention === undefined ? (now?.messagePayloadRetentionMs ?? null) : patch.messagePayloadRetention,
      messageRetentionMs: patch.messageRetention === undefined ? (now?.messageRetentionMs ?? null) : patch.messageRetention,
    };
    const payload = next.messagePayloadRetentionMs ?? env.MESSAGE_PAYLOAD_RETENTION;
    const rows = next.messageRetentionMs ?? env.MESSAGE_RETENTION;
    if (payload > rows) {
      const path = patch.messagePayloadRetention !== undefined ? 'messagePayloadRetention' : 'messageRetention';
      const message = `must keep payloads no longer than messages (messagePayloadRetention ${formatDuration(payload)} > messageRetention ${formatDuration(rows)})`;
      throw validationError(new z.ZodError([{ code: 'custom', path: [path], message, input: undefined }]), 'body');
    }
    const [stored] = await tx
      .insert(schema.accountRetention)
      .values({ accountId, ...next })
      .onConflictDoUpdate({ target: schema.accountRetention.accountId, set: { ...next, updatedAt: sql`now()` } })
      .returning();
    return stored;
  });
  // The purge reads the overrides at each tick; its next pass starts now, in whichever process runs it.
  await wakePurgeLoop(SERVICE_PURGE);
  return view(row);
}

/** Every account with an override of either value (the purge's per-account passes). */
export async function retentionOverrides(): Promise<TRetentionOverride[]> {
  const db = await getDb();
  const rows = await db.select().from(schema.accountRetention);
  return rows
    .filter((r) => r.messagePayloadRetentionMs !== null || r.messageRetentionMs !== null)
    .map((r) => ({ accountId: r.accountId, payloadMs: r.messagePayloadRetentionMs, rowsMs: r.messageRetentionMs }));
}

/** The payload retention the purge applies to `accountId` now (the `retention` a purged answer names). */
export async function payloadRetentionOf(accountId: string): Promise<number> {
  return (await read(accountId))?.messagePayloadRetentionMs ?? env.MESSAGE_PAYLOAD_RETENTION;
}
