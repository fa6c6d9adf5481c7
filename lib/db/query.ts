import { sql } from 'drizzle-orm';
import { inStatementSpan } from '@/lib/telemetry/spans';
import { storeHandle } from './client';
import type { DbOrTx } from './drivers/handle';

// Statements the query builder does not write: raw SQL through drizzle (queryRows) and, on the hot
// paths, fixed text straight to the driver (driverRows).

/**
 * Rows of a statement sent to the driver as text and parameters, bypassing drizzle's builder (hot
 * paths only). A `name` makes it a prepared statement (on either store): one fixed text per name.
 * With tracing on, a span of its own under the request, attempt or ingest that ran it.
 */
export async function driverRows<T>(text: string, params: unknown[], name?: string): Promise<T[]> {
  const handle = await storeHandle();
  return inStatementSpan(text, name, () => handle.query<T>(text, params, name));
}

/** Rows of a raw SQL statement, the same on PGlite and node-postgres. */
export async function queryRows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
