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

/**
 * driverRows for a fixed statement whose parameters name the partitions it reads (their created_at: the delivery queue's
 * statements, lib/service/delivery/claim.ts), so that it plans those alone at each run. PostgreSQL plans a prepared
 * statement generically at its sixth run, for every partition (with a year of days about a second, once per connection
 * and statement: tests/bench/claim-partitions.ts), and then goes on planning per run all the same: on PostgreSQL it is
 * sent unnamed, planned per run from the first. The embedded store keeps it prepared: its one connection pays that plan
 * once per process, over weekly partitions, where PGlite's unnamed path costs six messages at every call.
 */
export async function prunedRows<T>(text: string, params: unknown[], name: string): Promise<T[]> {
  const handle = await storeHandle();
  return inStatementSpan(text, name, () => handle.query<T>(text, params, handle.kind === 'postgres' ? undefined : name));
}

/** Rows of a raw SQL statement, the same on PGlite and node-postgres. */
export async function queryRows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
