import { and, eq, isNull, sql } from 'drizzle-orm';
import { connectApi } from '@/lib/console/connect-api/registry';
import type { TEnvironmentName } from '@/lib/console/connect-api/environments';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { env } from '@/lib/env';
import { findConditions } from './find-conditions';
import { ESCALATING_STAGES, stageOf } from './incident-stage';
import type { TAlertEvent } from './alert-message';
import { deliverAlert } from './deliver-alert';
import type { TAlertRow, TAlertRuleRow } from './rule-schemas';
import { processSingleton } from '@/lib/process-singleton';

// One evaluation of every enabled rule: an alert fires once when its condition starts for a
// subject (one row, one notice to the rule's target, its outcome recorded), is sent again every
// ALERT_REPEAT while it holds unless staff acknowledged or snoozed it, escalates when an incident
// it follows gets worse (the webhook disabled: a new notice of the same alert), and clears when the
// condition no longer holds (cleared_at, and a "resolved" notice). The partial unique index alerts_open_once makes
// "once" hold even if two evaluations ever overlapped.

const a = schema.alerts;
const r = schema.alertRules;

export type TEvaluation = { rules: number; fired: number; cleared: number; repeated: number; errors: { ruleId: string; message: string }[] };

/** Sends a notice, then its outcome on the alert row (a reminder's outcome replaces the first notice's). */
async function notify(rule: TAlertRuleRow, alert: TAlertRow, type: TAlertEvent, repeat = 0): Promise<void> {
  const result = await deliverAlert({ rule, alert, type, repeat });
  const db = await getDb();
  const outcome =
    type !== 'alert.resolved'
      ? { firedPostAt: result.at, firedPostStatus: result.status, firedPostError: result.error }
      : { clearedPostAt: result.at, clearedPostStatus: result.status, clearedPostError: result.error };
  await db.update(a).set(outcome).where(eq(a.id, alert.id));
}

/** Whether a firing alert is due a reminder: nobody acknowledged it, it is not snoozed, ALERT_REPEAT passed since the last notice. */
export function dueForRepeat(alert: Pick<TAlertRow, 'acknowledgedAt' | 'snoozedUntil' | 'notifiedAt' | 'firedAt'>, now: Date, repeatMs: number): boolean {
  if (alert.acknowledgedAt) return false;
  if (alert.snoozedUntil && alert.snoozedUntil.getTime() > now.getTime()) return false;
  return (alert.notifiedAt ?? alert.firedAt).getTime() + repeatMs <= now.getTime();
}

/**
 * Claims the reminder `alert` (as the evaluation read it) is due: two evaluations never send it
 * twice, and an acknowledgement or a snooze that came after that read wins — the row is checked
 * again, not the read (a snooze made as a reminder fell due was lost, the reminder sent). An
 * expired snooze is cleared. The claimed row, or null.
 */
export async function claimReminder(alert: Pick<TAlertRow, 'id' | 'notifiedAt' | 'firedAt'>, now: Date): Promise<TAlertRow | null> {
  const db = await getDb();
  const last = alert.notifiedAt ?? alert.firedAt;
  const [claimed] = await db
    .update(a)
    .set({ notifiedAt: now, repeats: sql`${a.repeats} + 1`, snoozedUntil: null })
    .where(
      and(
        eq(a.id, alert.id),
        isNull(a.clearedAt),
        isNull(a.acknowledgedAt),
        sql`(${a.snoozedUntil} is null or ${a.snoozedUntil} <= now())`,
        sql`coalesce(${a.notifiedAt}, ${a.firedAt}) = ${last.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  return claimed ?? null;
}

/** Claims the reminder, then sends it. */
async function remind(rule: TAlertRuleRow, alert: TAlertRow, now: Date): Promise<boolean> {
  const claimed = await claimReminder(alert, now);
  if (!claimed) return false;
  await notify(rule, claimed, 'alert.fired', claimed.repeats);
  return true;
}

/**
 * An open alert whose facts moved on (an incident's stage, its counts): its details updated; the
 * start of an escalating stage (the webhook disabled) is claimed once and sent as a new notice of the
 * same alert, whoever acknowledged or snoozed it (reminders stay quiet as they were). The row as it is now.
 */
async function follow(rule: TAlertRuleRow, alert: TAlertRow, details: Record<string, unknown>): Promise<TAlertRow> {
  const db = await getDb();
  const [was, next] = [stageOf(alert.details), stageOf(details)];
  if (was === next || !ESCALATING_STAGES.includes(next)) {
    if (JSON.stringify(alert.details) === JSON.stringify(details)) return alert;
    const [row] = await db
      .update(a)
      .set({ details })
      .where(and(eq(a.id, alert.id), isNull(a.clearedAt)))
      .returning();
    return row ?? alert;
  }
  const [claimed] = await db
    .update(a)
    .set({ details, notifiedAt: sql`now()` })
    .where(and(eq(a.id, alert.id), isNull(a.clearedAt), sql`coalesce(${a.details}->>'stage', 'failing') = ${was}`))
    .returning();
  if (!claimed) return alert;
  await notify(rule, claimed, 'alert.escalated');
  return claimed;
}

async function evaluateRule(rule: TAlertRuleRow, now: Date): Promise<{ fired: number; cleared: number; repeated: number }> {
  const db = await getDb();
  const open = await db
    .select()
    .from(a)
    .where(and(eq(a.ruleId, rule.id), isNull(a.clearedAt)));
  const openSubjects = new Set(open.map((o) => o.subject));
  const conditions = await findConditions(connectApi(rule.environment as TEnvironmentName), rule, now, new Map(open.map((o) => [o.subject, o])));
  let fired = 0;
  let cleared = 0;
  let repeated = 0;
  for (const [subject, details] of conditions) {
    if (openSubjects.has(subject)) continue;
    const [alert] = await db
      .insert(a)
      .values({ ruleId: rule.id, subject, details, notifiedAt: sql`now()` })
      .onConflictDoNothing()
      .returning();
    if (!alert) continue; // another evaluation fired it first
    fired++;
    await notify(rule, alert, 'alert.fired');
  }
  for (const row of open) {
    const details = conditions.get(row.subject);
    const alert = details && rule.kind === 'about_to_disable' ? await follow(rule, row, details) : row;
    if (details) {
      if (dueForRepeat(alert, now, env.ALERT_REPEAT) && (await remind(rule, alert, now))) repeated++;
      continue;
    }
    // Resolved: done, and with it its snooze (who acknowledged it stays in the list); a new start fires anew.
    const [done] = await db
      .update(a)
      .set({ clearedAt: sql`now()`, snoozedUntil: null })
      .where(and(eq(a.id, alert.id), isNull(a.clearedAt)))
      .returning();
    if (!done) continue;
    cleared++;
    await notify(rule, done, 'alert.resolved');
  }
  return { fired, cleared, repeated };
}

/** Rules whose facts could not be read, and what was said about them (said once, not every turn). */
const errorsSaid = processSingleton('alert-errors-said', () => new Map<string, string>());

/** Every enabled rule, one after another; a rule whose facts cannot be read is skipped (and said once). */
export async function evaluateAlertRules(now = new Date()): Promise<TEvaluation> {
  const db = await getDb();
  const rules = await db.select().from(r).where(eq(r.enabled, true));
  const result: TEvaluation = { rules: rules.length, fired: 0, cleared: 0, repeated: 0, errors: [] };
  const said = errorsSaid;
  for (const rule of rules) {
    try {
      const { fired, cleared, repeated } = await evaluateRule(rule, now);
      result.fired += fired;
      result.cleared += cleared;
      result.repeated += repeated;
      if (said.delete(rule.id)) console.log(`alert rule ${rule.id} (${rule.name}): evaluated again`);
    } catch (err) {
      const message = (err as Error).message;
      result.errors.push({ ruleId: rule.id, message });
      if (said.get(rule.id) !== message) console.warn(`alert rule ${rule.id} (${rule.name}): not evaluated: ${message}`);
      said.set(rule.id, message);
    }
  }
  return result;
}
