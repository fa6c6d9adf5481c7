import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ID_CLOCK_SLACK_MS, idWindow } from '@/lib/ids';

// service.messages and service.deliveries are partitioned by created_at (migrations 0039, 0040), and attempts by theirs
// (0037): a lookup by id alone plans and probes every partition. An id the app made says the second it was made, just
// before its row was written (lib/ids.ts idWindow: that second ± an hour, and why an hour), so a lookup by a message's id
// (or its event's, or an attempt's) bounds created_at to that window and plans the one partition of that time (two across
// a midnight); a message's attempts were made after it, from the window's start. An id that does not say is looked up
// unbounded, as before partitioning.

export { ID_CLOCK_SLACK_MS } from '@/lib/ids';

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** `column` (a message's or its deliveries' created_at) within the window of `id` (the message's or its event's id); none when unbounded. */
export function createdNearId(column: AnyPgColumn | SQL, id: string): SQL | undefined {
  const w = idWindow(id);
  return w ? sql`(${column} >= ${at(w.from)} and ${column} < ${at(w.to)})` : undefined;
}

/**
 * `column` (an attempt's created_at) not before the window of its message's `id` (an attempt is made after its message) nor
 * after now plus the slack, so the partitions made ahead are not planned either.
 */
export function createdSinceId(column: AnyPgColumn | SQL, id: string): SQL | undefined {
  const w = idWindow(id);
  return w ? sql`${column} between ${at(w.from)} and ${at(new Date(Date.now() + ID_CLOCK_SLACK_MS))}` : undefined;
}

/**
 * The attempts of a message made at `at` (or of the message whose id is `id`): from then, less the slack, to now plus it, as
 * constants a newest-attempt LATERAL can be planned with (selectDeliveries' attemptsWithin); none when the id does not say.
 */
export function attemptsAfter(at: Date | string): { from: string; until: string } | undefined {
  const from = at instanceof Date ? at.getTime() - ID_CLOCK_SLACK_MS : (idWindow(at)?.from.getTime() ?? null);
  if (from === null) return undefined;
  return { from: new Date(from).toISOString(), until: new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString() };
}
