import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TCursor } from '@/lib/http/paging';

/** The keyset condition for the page after `cursor`, newest first: `(createdAt, id) < (t, id)`. */
export function olderThan(createdAt: PgColumn, id: PgColumn, cursor: TCursor | null): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${createdAt}, ${id}) < (${cursor.t}::timestamptz, ${cursor.id}::${sql.raw(id.getSQLType())})`;
}
