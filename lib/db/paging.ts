import { and, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TCursor } from '@/lib/http/paging';

/** The keyset condition for the page after `cursor`, newest first: `(createdAt, id) < (t, id)`. */
export function olderThan(createdAt: PgColumn, id: PgColumn, cursor: TCursor | null): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${createdAt}, ${id}) < (${cursor.t}::timestamptz, ${cursor.id}::${sql.raw(id.getSQLType())})`;
}

/** The `before` / `after` filters of a list (RFC 3339, both exclusive), on its creation time. */
export function createdWithin(createdAt: PgColumn, { before, after }: { before?: string; after?: string }): SQL | undefined {
  return and(before ? lt(createdAt, new Date(before)) : undefined, after ? gt(createdAt, new Date(after)) : undefined);
}
