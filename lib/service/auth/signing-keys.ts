import { hkdfSync } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import { desc, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ksuid } from '@/lib/ids';
import { processSingleton } from '@/lib/process-singleton';

// RS256 signing keys: generated on first start, persisted, published at /.well-known/jwks.json.
// Keys never change once written, so every instance may cache them.

type TSigningKey = { kid: string; privateKey: CryptoKey; publicJwk: JWK; pageTokenKey: Buffer };

/** The HMAC key of page tokens, derived from the signing key's private part (so every instance has it, and nothing more is stored). */
function derivePageTokenKey(privateJwk: JWK): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(String(privateJwk.d), 'base64url'), '', 'giving-connect page tokens v1', 32));
}

const cache = processSingleton('signing-keys', (): { signingKey?: Promise<TSigningKey>; jwks?: { keys: JWK[]; at: number } } => ({}));

async function activeKey(): Promise<TSigningKey | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(schema.signingKeys)
    .where(isNull(schema.signingKeys.retiredAt))
    .orderBy(desc(schema.signingKeys.createdAt), desc(schema.signingKeys.kid))
    .limit(1);
  if (!row) return null;
  const privateJwk = row.privateJwk as JWK;
  return {
    kid: row.kid,
    privateKey: (await importJWK(privateJwk, 'RS256')) as CryptoKey,
    publicJwk: row.publicJwk as JWK,
    pageTokenKey: derivePageTokenKey(privateJwk),
  };
}

/**
 * The active key, made on the very first start. Instances starting at once may each make one: the
 * unique index on the active key (migration 0005) lets one insert win, the others take its key.
 */
async function loadOrCreate(): Promise<TSigningKey> {
  const existing = await activeKey();
  if (existing) return existing;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = ksuid();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = await exportJWK(privateKey);
  const db = await getDb();
  await db.insert(schema.signingKeys).values({ kid, privateJwk, publicJwk }).onConflictDoNothing();
  cache.jwks = undefined;
  const winner = await activeKey();
  if (!winner) throw new Error('No active signing key after creating one.');
  return winner;
}

export function currentSigningKey(): Promise<TSigningKey> {
  cache.signingKey ??= loadOrCreate().catch((err) => {
    cache.signingKey = undefined;
    throw err;
  });
  return cache.signingKey;
}

/** Every published key (retired ones too, until removed), refreshed when an unknown kid shows up. */
export async function publicJwks({ refresh = false } = {}): Promise<{ keys: JWK[] }> {
  if (!refresh && cache.jwks) return { keys: cache.jwks.keys };
  await currentSigningKey();
  const db = await getDb();
  const rows = await db.select({ publicJwk: schema.signingKeys.publicJwk }).from(schema.signingKeys);
  cache.jwks = { keys: rows.map((r) => r.publicJwk as JWK), at: Date.now() };
  return { keys: cache.jwks.keys };
}
