import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';

// Staff quieting a firing alert: acknowledged (it stays firing, is sent no reminders, and the
// banner names who took it), or snoozed for 1–168 hours (no reminders until then). Both end when
// the alert resolves; a later start of the condition fires a new, unacknowledged alert.
// Callers check the session and the role (operators and admins) and audit.

const a = schema.alerts;
const r = schema.alertRules;

export const ZAcknowledge = z.object({
  note: z.string({ message: 'must be text' }).trim().max(500, { message: 'must be at most 500 characters' }).optional(),
});
export const SNOOZE_HOURS = { min: 1, max: 168 } as const;
export const ZSnooze = z.object({
  hours: z
    .number({ message: `must be a whole number of hours from ${SNOOZE_HOURS.min} to ${SNOOZE_HOURS.max}` })
    .int({ message: `must be a whole number of hours from ${SNOOZE_HOURS.min} to ${SNOOZE_HOURS.max}` })
    .min(SNOOZE_HOURS.min, { message: `must be a whole number of hours from ${SNOOZE_HOURS.min} to ${SNOOZE_HOURS.max}` })
    .max(SNOOZE_HOURS.max, { message: `must be a whole number of hours from ${SNOOZE_HOURS.min} to ${SNOOZE_HOURS.max}` }),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (id: string) => new ApiError('not_found', `No alert with the id ${id}.`);

/** The alert of this environment, firing; a 404 for another environment's or an unknown id, a 409 once it has cleared. */
async function firingAlert(environment: string, id: string) {
  if (!UUID.test(id)) throw notFound(id);
  const db = await getDb();
  const [row] = await db
    .select({ id: a.id, clearedAt: a.clearedAt })
    .from(a)
    .innerJoin(r, eq(r.id, a.ruleId))
    .where(and(eq(a.id, id), eq(r.environment, environment)));
  if (!row) throw notFound(id);
  if (row.clearedAt) throw new ApiError('conflict', `The alert ${id} has already cleared (${row.clearedAt.toISOString()}): there is nothing to quiet.`);
  return db;
}

export type TQuieted = {
  id: string;
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  acknowledgeNote: string | null;
  snoozedUntil: string | null;
};

const quieted = (row: typeof a.$inferSelect): TQuieted => ({
  id: row.id,
  acknowledgedBy: row.acknowledgedBy,
  acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  acknowledgeNote: row.acknowledgeNote,
  snoozedUntil: row.snoozedUntil?.toISOString() ?? null,
});

export async function acknowledgeAlert(environment: string, id: string, by: string, note?: string): Promise<TQuieted> {
  const db = await firingAlert(environment, id);
  const [row] = await db
    .update(a)
    .set({ acknowledgedBy: by, acknowledgedAt: sql`now()`, acknowledgeNote: note || null })
    .where(and(eq(a.id, id), sql`${a.clearedAt} is null`))
    .returning();
  if (!row) throw new ApiError('conflict', `The alert ${id} has already cleared: there is nothing to acknowledge.`);
  return quieted(row);
}

export async function snoozeAlert(environment: string, id: string, hours: number): Promise<TQuieted> {
  const db = await firingAlert(environment, id);
  const [row] = await db
    .update(a)
    .set({ snoozedUntil: sql`now() + make_interval(hours => ${hours}::int)` })
    .where(and(eq(a.id, id), sql`${a.clearedAt} is null`))
    .returning();
  if (!row) throw new ApiError('conflict', `The alert ${id} has already cleared: there is nothing to snooze.`);
  return quieted(row);
}
