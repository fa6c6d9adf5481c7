import { and, eq, isNull } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { dummySecretHash, hashSecret, verifySecret } from '@/lib/crypto/secrets';
import { randomString } from '@/lib/ids';
import { ttlCache } from '@/lib/ttl-cache';

// OAuth clients, issued by the operator (scripts/service-cli.ts), never through the API.

/** How long a process may go on trusting a client it read as not revoked (docs/API.md: revocation within 1 s everywhere). */
export const CLIENT_CACHE_TTL_MS = 1000;
const clientCache = ttlCache<string, { accountId: string } | null>('client-account', { ttlMs: CLIENT_CACHE_TTL_MS });

export type TClient = { clientId: string; accountId: string; accountName: string };

export async function ensureAccount(db: DbOrTx, name: string): Promise<string> {
  await db.insert(schema.accounts).values({ name }).onConflictDoNothing({ target: schema.accounts.name });
  const [row] = await db.select({ id: schema.accounts.id }).from(schema.accounts).where(eq(schema.accounts.name, name));
  return row.id;
}

/** A new client for `accountName` (the account is created if new). The secret is shown once. */
export async function createClient(accountName: string): Promise<{ client_id: string; client_secret: string }> {
  const db = await getDb();
  const clientId = `gc_${randomString(24)}`;
  const clientSecret = randomString(48);
  const secretHash = await hashSecret(clientSecret);
  await db.transaction(async (tx) => {
    const accountId = await ensureAccount(tx, accountName);
    await tx.insert(schema.clients).values({ id: clientId, accountId, secretHash });
  });
  clientCache.delete(clientId);
  return { client_id: clientId, client_secret: clientSecret };
}

/** Creates or updates a client with a known id and secret (the sandbox bootstrap client). */
export async function upsertClient(clientId: string, clientSecret: string, accountName: string): Promise<void> {
  const db = await getDb();
  const [existing] = await db.select().from(schema.clients).where(eq(schema.clients.id, clientId));
  if (existing && !existing.revokedAt && (await verifySecret(clientSecret, existing.secretHash))) {
    const [acct] = await db.select({ name: schema.accounts.name }).from(schema.accounts).where(eq(schema.accounts.id, existing.accountId));
    if (acct?.name === accountName) return; // unchanged: skip the slow re-hash
  }
  const secretHash = await hashSecret(clientSecret);
  await db.transaction(async (tx) => {
    const accountId = await ensureAccount(tx, accountName);
    await tx
      .insert(schema.clients)
      .values({ id: clientId, accountId, secretHash })
      .onConflictDoUpdate({ target: schema.clients.id, set: { accountId, secretHash, revokedAt: null } });
  });
  clientCache.delete(clientId);
}

export async function listClients(accountName?: string) {
  const db = await getDb();
  const rows = await db
    .select({
      clientId: schema.clients.id,
      account: schema.accounts.name,
      createdAt: schema.clients.createdAt,
      revokedAt: schema.clients.revokedAt,
    })
    .from(schema.clients)
    .innerJoin(schema.accounts, eq(schema.accounts.id, schema.clients.accountId))
    .where(accountName ? eq(schema.accounts.name, accountName) : undefined)
    .orderBy(schema.clients.createdAt);
  return rows;
}

export async function revokeClient(clientId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(schema.clients)
    .set({ revokedAt: new Date() })
    .where(and(eq(schema.clients.id, clientId), isNull(schema.clients.revokedAt)))
    .returning({ id: schema.clients.id });
  clientCache.delete(clientId); // at once in this process; other processes within CLIENT_CACHE_TTL_MS
  return rows.length > 0;
}

/** The client when id and secret match and it is not revoked; same work either way. */
export async function authenticateClient(clientId: string, clientSecret: string): Promise<TClient | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      clientId: schema.clients.id,
      accountId: schema.clients.accountId,
      secretHash: schema.clients.secretHash,
      revokedAt: schema.clients.revokedAt,
      accountName: schema.accounts.name,
    })
    .from(schema.clients)
    .innerJoin(schema.accounts, eq(schema.accounts.id, schema.clients.accountId))
    .where(eq(schema.clients.id, clientId));
  const ok = await verifySecret(clientSecret, row?.secretHash ?? (await dummySecretHash()));
  if (!row || !ok || row.revokedAt) return null;
  return { clientId: row.clientId, accountId: row.accountId, accountName: row.accountName };
}

/**
 * Whether the client behind a token is still in good standing: read at most once per
 * CLIENT_CACHE_TTL_MS per process (a revocation takes effect within that everywhere, and at once in
 * the process that made it).
 */
export function clientAccount(clientId: string): Promise<{ accountId: string } | null> {
  return clientCache.get(clientId, async () => {
    const db = await getDb();
    const [row] = await db
      .select({ accountId: schema.clients.accountId })
      .from(schema.clients)
      .where(and(eq(schema.clients.id, clientId), isNull(schema.clients.revokedAt)));
    return row ?? null;
  });
}
