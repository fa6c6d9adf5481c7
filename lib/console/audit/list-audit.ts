import 'server-only';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { newestFirst } from '@/lib/db/paging';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { validationError } from '@/lib/http/errors';
import { ZInstant } from '@/lib/console/instant';
import { AUDIT_ACTIONS } from './audit-actions';

// Reading the audit log: filters (actor, action, target id, date range), newest first, paged by
// keyset on the row id (ids only grow), so a page costs the same however long the log.

const a = schema.auditLog;
export const AUDIT_PAGE_SIZE = 50;

export const ZAuditFilters = z
  .object({
    actor: z.string().trim().max(320).optional(),
    action: z.enum(AUDIT_ACTIONS, { message: 'is not an action the log records' }).optional(),
    target: z.string().trim().max(200).optional(),
    since: ZInstant.optional(),
    until: ZInstant.optional(),
    pageToken: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, { message: 'is not a page token of this list' })
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.since && v.until && v.until <= v.since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after since' });
  });
export type TAuditFilters = z.output<typeof ZAuditFilters>;

/** The filters from a URL; an empty value is no filter, a wrong one a 400 (ApiError) naming it. */
export function parseAuditFilters(sp: URLSearchParams): TAuditFilters {
  const raw = Object.fromEntries(['actor', 'action', 'target', 'since', 'until', 'pageToken'].map((k) => [k, sp.get(k) || undefined]));
  const parsed = ZAuditFilters.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

export type TAuditRow = typeof schema.auditLog.$inferSelect;

export async function listAudit(f: TAuditFilters, limit = AUDIT_PAGE_SIZE): Promise<{ rows: TAuditRow[]; nextPageToken: string | null }> {
  const conditions: (SQL | undefined)[] = [
    f.actor ? sql`lower(${a.actor}) = lower(${f.actor})` : undefined,
    f.action ? eq(a.action, f.action) : undefined,
    // A target is one of the space-separated ids.
    f.target ? sql`${f.target} = any(string_to_array(${a.target}, ' '))` : undefined,
    f.since ? gte(a.at, f.since) : undefined,
    f.until ? lt(a.at, f.until) : undefined,
    f.pageToken ? lt(a.id, Number(f.pageToken)) : undefined,
  ];
  const db = await getDb();
  const rows = await db
    .select()
    .from(a)
    .where(and(...conditions))
    .orderBy(...newestFirst(a.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { rows: page, nextPageToken: rows.length > limit ? String(page[page.length - 1].id) : null };
}
