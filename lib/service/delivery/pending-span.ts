import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';

// A webhook-wide write over its unsettled deliveries (a resume's or a cap change's slotting, a retry now) concerns the
// delivery queue's rows alone (migration 0041: every pending or sending delivery, unpartitioned). Their created_at span,
// read there first, bounds the write by constants, so PostgreSQL plans the deliveries partitions of that span alone —
// not every one (a year of days is 372), which it plans and probes for a condition on webhook_id and status only.

export type TSpan = { first: string; last: string };

/** The created_at span of the webhook's pending deliveries (those created in [since, until) when given); null: none. */
export async function pendingSpan(db: DbOrTx, webhookId: string, within?: { since: Date; until: Date }): Promise<TSpan | null> {
  const window = within
    ? sql` and created_at >= ${within.since.toISOString()}::timestamptz and created_at < ${within.until.toISOString()}::timestamptz`
    : sql``;
  const [row] = await queryRows<{ first: Date | string | null; last: Date | string | null }>(
    db,
    sql`select min(created_at) as first, max(created_at) as last from service.delivery_queue
         where webhook_id = ${webhookId} and status = 'pending'${window}`,
  );
  if (!row || row.first === null || row.last === null) return null;
  return { first: new Date(row.first).toISOString(), last: new Date(row.last).toISOString() };
}

/** `column` within the span, by constants the planner prunes with; false without one. */
export function inSpan(column: SQLWrapper, span: TSpan | null): SQL {
  if (span === null) return sql`false`;
  return sql`${column} >= ${span.first}::timestamptz and ${column} <= ${span.last}::timestamptz`;
}
