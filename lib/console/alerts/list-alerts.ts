import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { alertSubject, type TAlertSubject } from './alert-subject';

// Alerts as the console lists them: firing ones first (oldest first: the longest-standing problem
// leads), then the most recently cleared.

const a = schema.alerts;
const r = schema.alertRules;

export type TAlertJson = {
  id: string;
  ruleId: string;
  ruleName: string;
  kind: string;
  subject: string;
  /** The subject as the console names and links it (a webhook by its description or URL). */
  about: TAlertSubject;
  firedAt: string;
  clearedAt: string | null;
  details: Record<string, unknown>;
  /** The staff member's e-mail who acknowledged it (firing but quiet: no reminders), when, and their note. */
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  acknowledgeNote: string | null;
  /** No reminders before this time (a snooze still running; null once it has passed or the alert resolved). */
  snoozedUntil: string | null;
  /** Reminders sent while it fired (every ALERT_REPEAT). */
  repeats: number;
  /** The newest firing notice (the first, or the latest reminder) and the resolved one. */
  firedPost: { at: string | null; status: number | null; error: string | null };
  clearedPost: { at: string | null; status: number | null; error: string | null };
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listAlerts(environment: string, { limit = 100 }: { limit?: number } = {}): Promise<TAlertJson[]> {
  const db = await getDb();
  const rows = await db
    .select({ alert: a, ruleName: r.name, kind: r.kind })
    .from(a)
    .innerJoin(r, eq(r.id, a.ruleId))
    .where(eq(r.environment, environment))
    .orderBy(sql`${a.clearedAt} is not null`, sql`case when ${a.clearedAt} is null then ${a.firedAt} end asc`, desc(a.clearedAt), desc(a.id))
    .limit(limit);
  return rows.map(({ alert, ruleName, kind }) => ({
    id: alert.id,
    ruleId: alert.ruleId,
    ruleName,
    kind,
    subject: alert.subject,
    about: alertSubject(alert.subject, alert.details as Record<string, unknown>),
    firedAt: alert.firedAt.toISOString(),
    clearedAt: iso(alert.clearedAt),
    details: alert.details as Record<string, unknown>,
    acknowledgedBy: alert.acknowledgedBy,
    acknowledgedAt: iso(alert.acknowledgedAt),
    acknowledgeNote: alert.acknowledgeNote,
    snoozedUntil: alert.snoozedUntil && alert.snoozedUntil.getTime() > Date.now() ? iso(alert.snoozedUntil) : null,
    repeats: alert.repeats,
    firedPost: { at: iso(alert.firedPostAt), status: alert.firedPostStatus, error: alert.firedPostError },
    clearedPost: { at: iso(alert.clearedPostAt), status: alert.clearedPostStatus, error: alert.clearedPostError },
  }));
}

/**
 * The banner's facts: how many alerts of the environment are firing, how many of them staff have
 * quieted (acknowledged, or snoozed now), and the one to name: the oldest not quieted, else the oldest.
 */
export type TFiringAlerts = {
  count: number;
  quiet: number;
  oldestId: string | null;
  oldest: { ruleName: string; about: TAlertSubject; acknowledgedBy: string | null; acknowledgedAt: string | null; snoozedUntil: string | null } | null;
};

const quietNow = sql`(${a.acknowledgedAt} is not null or ${a.snoozedUntil} > now())`;

export async function firingAlerts(environment: string): Promise<TFiringAlerts> {
  const db = await getDb();
  const rows = await db
    .select({
      id: a.id,
      subject: a.subject,
      details: a.details,
      ruleName: r.name,
      acknowledgedBy: a.acknowledgedBy,
      acknowledgedAt: a.acknowledgedAt,
      snoozedUntil: a.snoozedUntil,
      count: sql<number>`count(*) over ()`,
      quiet: sql<number>`count(*) filter (where ${quietNow}) over ()`,
    })
    .from(a)
    .innerJoin(r, eq(r.id, a.ruleId))
    .where(and(isNull(a.clearedAt), eq(r.environment, environment)))
    .orderBy(quietNow, a.firedAt)
    .limit(1);
  const row = rows[0];
  return {
    count: Number(row?.count ?? 0),
    quiet: Number(row?.quiet ?? 0),
    oldestId: row?.id ?? null,
    oldest: row
      ? {
          ruleName: row.ruleName,
          about: alertSubject(row.subject, row.details as Record<string, unknown>),
          acknowledgedBy: row.acknowledgedBy,
          acknowledgedAt: iso(row.acknowledgedAt),
          snoozedUntil: row.snoozedUntil && row.snoozedUntil.getTime() > Date.now() ? iso(row.snoozedUntil) : null,
        }
      : null,
  };
}
