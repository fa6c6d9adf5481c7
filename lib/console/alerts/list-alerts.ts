import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
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
    firedPost: { at: iso(alert.firedPostAt), status: alert.firedPostStatus, error: alert.firedPostError },
    clearedPost: { at: iso(alert.clearedPostAt), status: alert.clearedPostStatus, error: alert.clearedPostError },
  }));
}

/** The banner's facts: how many alerts of the environment are firing, and the oldest one (its id, rule and subject). */
export type TFiringAlerts = { count: number; oldestId: string | null; oldest: { ruleName: string; about: TAlertSubject } | null };

export async function firingAlerts(environment: string): Promise<TFiringAlerts> {
  const db = await getDb();
  const rows = await db
    .select({ id: a.id, subject: a.subject, details: a.details, ruleName: r.name, count: sql<number>`count(*) over ()` })
    .from(a)
    .innerJoin(r, eq(r.id, a.ruleId))
    .where(and(isNull(a.clearedAt), eq(r.environment, environment)))
    .orderBy(a.firedAt)
    .limit(1);
  const row = rows[0];
  return {
    count: Number(row?.count ?? 0),
    oldestId: row?.id ?? null,
    oldest: row ? { ruleName: row.ruleName, about: alertSubject(row.subject, row.details as Record<string, unknown>) } : null,
  };
}
