import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { safeEqual, sha256 } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { personalTokens, users } from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { recordAudit } from '../audit/record-audit';
import { forbiddenMessage, hasRole, type TRole } from './roles';
import type { TStaff } from './session';

// Personal access tokens: a staff member's bearer token for one thing only, reading a receiver's
// receipts as they arrive (GET /api/receivers/{id}/stream, what `npm run listen` follows). No other
// route reads the Authorization header, so a token opens nothing else.
// - `gcc_pat_` + 32 base62 characters (190 random bits), shown once in the answer that makes it;
//   only its SHA-256 is stored, a presented token is looked up by that hash and compared in constant time.
// - It works until it expires (1–365 days, 30 by default) or is revoked, and only while its owner is
//   active and at least an operator: the stream carries whole bodies and signature headers to forward
//   them verbatim, which a viewer is never shown, so tokens are for operators and admins (a viewer's
//   request to make one is a 403, a token whose owner was made a viewer is refused).
// - Each member sees and revokes only their own tokens; making and revoking are audited.

export const TOKEN_PREFIX = 'gcc_pat_';
export const PERSONAL_TOKEN = /^gcc_pat_[A-Za-z0-9]{32}$/;
/** The least role a token's owner must hold, when it is made and whenever it is used. */
export const TOKEN_ROLE: TRole = 'operator';

export const ZCreateToken = z
  .object({
    name: z.string().trim().min(1, 'give the token a name (1–100 characters), e.g. the machine it is for').max(100, 'must be at most 100 characters'),
    expiresInDays: z.number().int('must be a whole number of days').min(1, 'must be between 1 and 365').max(365, 'must be between 1 and 365').default(30),
  })
  .strict();

type TTokenRow = typeof personalTokens.$inferSelect;
export type TTokenView = {
  id: string;
  name: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  state: 'live' | 'expired' | 'revoked';
};

function view(t: TTokenRow, now = Date.now()): TTokenView {
  const state = t.revokedAt ? 'revoked' : t.expiresAt.getTime() <= now ? 'expired' : 'live';
  return {
    id: t.id,
    name: t.name,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt.toISOString(),
    revokedAt: t.revokedAt?.toISOString() ?? null,
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    state,
  };
}

/** Makes a token for `by`; the answer is the only place the token ever appears. */
export async function createToken(by: TStaff, input: z.infer<typeof ZCreateToken>): Promise<TTokenView & { token: string }> {
  const token = `${TOKEN_PREFIX}${randomString(32)}`;
  const db = await getDb();
  const [row] = await db
    .insert(personalTokens)
    .values({ userId: by.userId, name: input.name, tokenHash: sha256(token), expiresAt: sql`now() + ${input.expiresInDays}::int * interval '1 day'` })
    .returning();
  await recordAudit({ actor: by, action: 'token.create', target: [row.id], result: 'ok', detail: { name: input.name, expiresInDays: input.expiresInDays } });
  return { ...view(row), token };
}

/** The caller's own tokens, newest first (never the tokens themselves). */
export async function listTokens(userId: string): Promise<TTokenView[]> {
  const db = await getDb();
  const rows = await db.select().from(personalTokens).where(eq(personalTokens.userId, userId)).orderBy(desc(personalTokens.createdAt)).limit(200);
  return rows.map((r) => view(r));
}

/** Revokes one of the caller's tokens at once (revoked stays revoked). Null when the caller has no such token. */
export async function revokeToken(by: TStaff, id: string): Promise<TTokenView | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .update(personalTokens)
    .set({ revokedAt: sql`coalesce(${personalTokens.revokedAt}, now())` })
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, by.userId)))
    .returning();
  if (!row) return null;
  await recordAudit({ actor: by, action: 'token.revoke', target: [row.id], result: 'ok', detail: { name: row.name } });
  return view(row);
}

/**
 * The staff member a presented bearer token stands for, or the ApiError to answer: 401 for a token
 * that is unknown, revoked or expired, or whose owner is deactivated (each says which); 403 for an
 * owner below TOKEN_ROLE. `touch` records its use (at most once a minute).
 */
export async function authenticateToken(token: string, { touch = false } = {}): Promise<{ staff: TStaff; tokenId: string }> {
  const challenge = { headers: { 'www-authenticate': 'Bearer realm="giving-connect-console", error="invalid_token"' } };
  if (!PERSONAL_TOKEN.test(token))
    throw new ApiError(
      'unauthorized',
      `The bearer token is not a personal access token of this console (${TOKEN_PREFIX}…); make one on the Tokens page.`,
      challenge,
    );
  const hash = sha256(token);
  const db = await getDb();
  const [row] = await db
    .select({
      token: personalTokens,
      email: users.email,
      role: users.role,
      disabledAt: users.disabledAt,
      mustChange: users.mustChangePassword,
      expired: sql<boolean>`${personalTokens.expiresAt} <= now()`,
    })
    .from(personalTokens)
    .innerJoin(users, eq(users.id, personalTokens.userId))
    .where(eq(personalTokens.tokenHash, hash))
    .limit(1);
  if (!row || !safeEqual(row.token.tokenHash, hash)) throw new ApiError('unauthorized', 'The token is not known to this console.', challenge);
  if (row.token.revokedAt) throw new ApiError('unauthorized', `The token "${row.token.name}" was revoked at ${row.token.revokedAt.toISOString()}.`, challenge);
  if (row.expired) throw new ApiError('unauthorized', `The token "${row.token.name}" expired at ${row.token.expiresAt.toISOString()}.`, challenge);
  if (row.disabledAt) throw new ApiError('unauthorized', `The token's owner (${row.email}) is deactivated.`, challenge);
  // A password reset by an admin (the account may have been someone else's for a while) holds its tokens until it is changed.
  if (row.mustChange) throw new ApiError('forbidden', `The token's owner (${row.email}) must change their one-time password first.`);
  if (!hasRole(row.role, TOKEN_ROLE)) throw new ApiError('forbidden', forbiddenMessage(row.role, TOKEN_ROLE));
  if (touch && (!row.token.lastUsedAt || Date.now() - row.token.lastUsedAt.getTime() > 60_000)) {
    await db
      .update(personalTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(personalTokens.id, row.token.id));
  }
  return { staff: { userId: row.token.userId, email: row.email, role: row.role as TRole, environment: 'sandbox' }, tokenId: row.token.id };
}
