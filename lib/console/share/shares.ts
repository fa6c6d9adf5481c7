import 'server-only';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { safeEqual, sha256 } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { sqlArray } from '@/lib/db/sql-array';
import { shares } from '@/lib/db/schema/console';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { recordAudit } from '../audit/record-audit';
import { searchTermProblem } from '../investigation/search-query';
import type { TStaff } from '../staff/session';

// Read-only links to one case (/cases/{query}) for someone without a login: a random token of 32
// base62 characters (190 bits), shown once; only its SHA-256 is stored, and a presented token is
// looked up by that hash and compared with it in constant time. A link answers until it expires
// (1 h to 7 days, 72 h by default) or is revoked; every creation, opening and revocation is audited.

export const SHARE_TOKEN = /^shr_[A-Za-z0-9]{32}$/;
export const ZCreateShare = z
  .object({
    query: z.string().trim().min(1).max(254),
    ticket: z.string().trim().max(200).default(''),
    expiresInHours: z.number().int('must be a whole number of hours').min(1, 'must be between 1 and 168').max(168, 'must be between 1 and 168').default(72),
  })
  .strict();
export type TShareRow = typeof shares.$inferSelect;
export type TShareView = { id: string; query: string; ticket: string; createdBy: string; createdAt: string; expiresAt: string };

const view = (s: TShareRow): TShareView => ({
  id: s.id,
  query: s.query,
  ticket: s.ticket,
  createdBy: s.createdByEmail,
  createdAt: s.createdAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
});

export function shareUrl(token: string): string {
  return `${env.CONSOLE_PUBLIC_URL}/share/${token}`;
}

/** Makes a link; the answer is the only place its token (in `url`) ever appears. */
export async function createShare(by: TStaff, input: z.infer<typeof ZCreateShare>): Promise<{ id: string; url: string; expiresAt: string }> {
  const problem = searchTermProblem(input.query);
  if (problem) throw new ApiError('bad_request', `query: the search term ${problem}.`);
  const token = `shr_${randomString(32)}`;
  const db = await getDb();
  const [row] = await db
    .insert(shares)
    .values({
      tokenHash: sha256(token),
      query: input.query,
      ticket: input.ticket,
      environment: by.environment,
      createdBy: by.userId,
      createdByEmail: by.email,
      expiresAt: sql`now() + ${input.expiresInHours}::int * interval '1 hour'`,
    })
    .returning();
  await recordAudit({
    actor: by,
    action: 'share.create',
    target: [row.id, input.query],
    result: 'ok',
    detail: { ticket: input.ticket, expiresInHours: input.expiresInHours },
  });
  return { id: row.id, url: shareUrl(token), expiresAt: row.expiresAt.toISOString() };
}

/** The live links of a case, newest first (never their tokens). */
export async function liveShares(query: string): Promise<TShareView[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(shares)
    .where(and(eq(shares.query, query), isNull(shares.revokedAt), gt(shares.expiresAt, sql`now()`)))
    .orderBy(desc(shares.createdAt))
    .limit(50);
  return rows.map(view);
}

/** Revokes a link at once; a link already revoked stays so. Null when there is no such link. */
export async function revokeShare(by: TStaff, id: string): Promise<TShareView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .update(shares)
    .set({ revokedAt: sql`coalesce(${shares.revokedAt}, now())` })
    .where(eq(shares.id, id))
    .returning();
  if (!row) return null;
  await recordAudit({ actor: by, action: 'share.revoke', target: [row.id, row.query], result: 'ok', detail: { ticket: row.ticket } });
  return view(row);
}

export type TOpened = { state: 'live'; share: TShareRow } | { state: 'gone'; share: TShareRow } | { state: 'unknown' };

/** The link a token names: live, gone (expired or revoked) or unknown. An opening is audited with its source address. */
export async function openShare(token: string, source: string): Promise<TOpened> {
  if (!SHARE_TOKEN.test(token)) return { state: 'unknown' };
  const hash = sha256(token);
  const db = await getDb();
  const [row] = await db
    .select({ share: shares, live: sql<boolean>`${shares.revokedAt} is null and ${shares.expiresAt} > now()` })
    .from(shares)
    .where(eq(shares.tokenHash, hash))
    .limit(1);
  if (!row || !safeEqual(row.share.tokenHash, hash)) return { state: 'unknown' };
  const state = row.live ? 'live' : 'gone';
  await recordAudit({
    actor: { userId: null, email: `share:${row.share.id}`, environment: row.share.environment },
    action: 'share.open',
    target: [row.share.id, row.share.query],
    result: state === 'live' ? 'ok' : 'gone',
    source,
    detail: { ticket: row.share.ticket },
  });
  return { state, share: row.share };
}

/** Revokes (or with dryRun counts) the live links whose case is asked by one of `terms` (case-insensitive): what a donor erasure ends. */
export async function revokeSharesFor(terms: string[], dryRun: boolean): Promise<number> {
  const wanted = [...new Set(terms.filter(Boolean).map((t) => t.toLowerCase()))];
  if (!wanted.length) return 0;
  const db = await getDb();
  const live = and(isNull(shares.revokedAt), gt(shares.expiresAt, new Date()), sql`lower(${shares.query}) = any(${sqlArray(wanted, 'text')})`);
  if (dryRun) return (await db.select({ id: shares.id }).from(shares).where(live)).length;
  return (await db.update(shares).set({ revokedAt: new Date() }).where(live).returning({ id: shares.id })).length;
}
