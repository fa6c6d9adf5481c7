import { and, eq, ilike, like, or, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { newestFirst, olderThan } from '@/lib/db/paging';
import { ApiError } from '@/lib/http/errors';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { nonprofitToJson, type TNonprofitJson } from './nonprofit-json';

// EXT GET /v1/nonprofits: the registered nonprofits, newest first, each with the calling account's
// Connect for it (or null), searchable by what support is handed: an EIN (or its first digits, a
// dash allowed), a CID (or its start), or a few letters of the nonprofit's or the Connect's name.

export type TListedNonprofit = TNonprofitJson & { connect: { id: string; name: string; active: boolean; createdAt: string } | null };

export const NONPROFIT_QUERY_MAX = 100;

/** What `q` searches: EIN digits, a CID, or a name fragment (case-insensitive). */
export function nonprofitQuery(raw: string | null): { kind: 'ein' | 'cid' | 'name'; term: string } | null {
  const q = (raw ?? '').trim();
  if (!q) return null;
  if (q.length > NONPROFIT_QUERY_MAX) {
    throw new ApiError('bad_request', `q must be at most ${NONPROFIT_QUERY_MAX} characters.`, {
      errors: [{ path: 'q', message: `must be at most ${NONPROFIT_QUERY_MAX} characters` }],
    });
  }
  if (/^\d[\d\s-]*$/.test(q)) return { kind: 'ein', term: q.replace(/[\s-]/g, '') };
  if (/^test_[0-9A-Za-z]*$/.test(q)) return { kind: 'cid', term: q };
  return { kind: 'name', term: q };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listNonprofits(
  accountId: string,
  q: string | null,
  { limit, cursor, scope }: TPageParams,
): Promise<{ results: TListedNonprofit[]; nextPageToken?: string }> {
  const db = await getDb();
  const n = schema.nonprofits;
  const c = schema.connects;
  const query = nonprofitQuery(q);
  let match: SQL | undefined;
  if (query?.kind === 'ein') match = like(n.ein, `${escapeLike(query.term)}%`);
  else if (query?.kind === 'cid') match = like(c.id, `${escapeLike(query.term)}%`);
  else if (query) {
    const pattern = `%${escapeLike(query.term)}%`;
    match = or(ilike(n.name, pattern), ilike(n.preferredName, pattern), ilike(c.name, pattern));
  }
  const rows = await db
    .select({ nonprofit: n, connect: { id: c.id, name: c.name, active: c.active, createdAt: c.createdAt } })
    .from(n)
    .leftJoin(c, and(eq(c.nonprofitId, n.id), eq(c.accountId, accountId)))
    .where(and(match, olderThan(n.createdAt, n.id, cursor)))
    .orderBy(...newestFirst(n.createdAt, n.id))
    .limit(limit + 1);
  return pageOf(
    rows,
    limit,
    (r) => ({ createdAt: r.nonprofit.createdAt, id: r.nonprofit.id }),
    (r) => ({
      ...nonprofitToJson(r.nonprofit),
      connect: r.connect?.id ? { id: r.connect.id, name: r.connect.name, active: r.connect.active, createdAt: r.connect.createdAt.toISOString() } : null,
    }),
    scope,
  );
}
