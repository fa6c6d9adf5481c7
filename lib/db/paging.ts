import { and, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TCursor } from '@/lib/http/cursor';

/** The keyset condition for the page after `cursor`, newest first: `(createdAt, id) < (t, id)`. */
export function olderThan(createdAt: PgColumn, id: PgColumn, cursor: TCursor | null): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${createdAt}, ${id}) < (${cursor.t}::timestamptz, ${cursor.id}::${sql.raw(id.getSQLType())})`;
}

/** The `before` / `after` filters of a list (RFC 3339, both exclusive), on its creation time. */
export function createdWithin(createdAt: PgColumn, { before, after }: { before?: string; after?: string }): SQL | undefined {
  return and(before ? lt(createdAt, new Date(before)) : undefined, after ? gt(createdAt, new Date(after)) : undefined);
}

/**
 * ORDER BY newest first in the terms of the list indexes, which drizzle declares `DESC NULLS LAST`:
 * a plain `DESC` means NULLS FIRST, which PostgreSQL will not read from such an index (even on NOT
 * NULL columns), so it would sort every row of the list before returning the first page.
 */
export function newestFirst(...columns: PgColumn[]): SQL[] {
  return columns.map((c) => sql`${c} desc nulls last`);
}
