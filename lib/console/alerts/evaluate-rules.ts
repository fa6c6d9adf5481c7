import { and, eq, isNull, sql } from 'drizzle-orm';
import { connectApi } from '@/lib/console/connect-api/registry';
import type { TEnvironmentName } from '@/lib/console/connect-api/environments';
import { getDb, schema } from '@/lib/db/client';
import { env } from '@/lib/env';
import { findConditions } from './find-conditions';
import { describeRule, type TAlertRow, type TAlertRuleRow } from './rule-schemas';
import { sendAlert } from './send-alert';
import { processSingleton } from '@/lib/process-singleton';

// One evaluation of every enabled rule: an alert fires once when its condition starts for a
// subject (one row, one signed POST, its outcome recorded) and clears when the condition no longer
// holds (cleared_at, and a signed "resolved" POST). The partial unique index alerts_open_once makes
// "once" hold even if two evaluations ever overlapped.

const a = schema.alerts;
const r = schema.alertRules;

export type TEvaluation = { rules: number; fired: number; cleared: number; errors: { ruleId: string; message: string }[] };

function alertBody(type: 'alert.fired' | 'alert.resolved', rule: TAlertRuleRow, alert: TAlertRow): string {
  return JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      alertId: alert.id,
      rule: { id: rule.id, name: rule.name, kind: rule.kind, description: describeRule(rule), webhookId: rule.webhookId, environment: rule.environment },
      subject: alert.subject,
      firedAt: alert.firedAt.toISOString(),
      clearedAt: alert.clearedAt?.toISOString() ?? null,
      details: alert.details,
      consoleUrl: `${env.PUBLIC_URL}/alerts#alert-${alert.id}`,
    },
  });
}

/** The POST for a state change, then its outcome on the alert row. */
async function notify(rule: TAlertRuleRow, alert: TAlertRow, type: 'alert.fired' | 'alert.resolved'): Promise<void> {
  const messageId = `alert_${alert.id.replaceAll('-', '')}_${type === 'alert.fired' ? 'fired' : 'resolved'}`;
  const result = await sendAlert({ url: rule.targetUrl, secret: rule.secret, messageId, body: alertBody(type, rule, alert) });
  const db = await getDb();
  const outcome =
    type === 'alert.fired'
      ? { firedPostAt: result.at, firedPostStatus: result.status, firedPostError: result.error }
      : { clearedPostAt: result.at, clearedPostStatus: result.status, clearedPostError: result.error };
  await db.update(a).set(outcome).where(eq(a.id, alert.id));
}

async function evaluateRule(rule: TAlertRuleRow, now: Date): Promise<{ fired: number; cleared: number }> {
  const conditions = await findConditions(connectApi(rule.environment as TEnvironmentName), rule, now);
  const db = await getDb();
  const open = await db.select().from(a).where(and(eq(a.ruleId, rule.id), isNull(a.clearedAt)));
  const openSubjects = new Set(open.map((o) => o.subject));
  let fired = 0;
  let cleared = 0;
  for (const [subject, details] of conditions) {
    if (openSubjects.has(subject)) continue;
    const [alert] = await db.insert(a).values({ ruleId: rule.id, subject, details }).onConflictDoNothing().returning();
    if (!alert) continue; // another evaluation fired it first
    fired++;
    await notify(rule, alert, 'alert.fired');
  }
  for (const alert of open) {
    if (conditions.has(alert.subject)) continue;
    const [done] = await db.update(a).set({ clearedAt: sql`now()` }).where(and(eq(a.id, alert.id), isNull(a.clearedAt))).returning();
    if (!done) continue;
    cleared++;
    await notify(rule, done, 'alert.resolved');
  }
  return { fired, cleared };
}

/** Rules whose facts could not be read, and what was said about them (said once, not every turn). */
const errorsSaid = processSingleton('alert-errors-said', () => new Map<string, string>());

/** Every enabled rule, one after another; a rule whose facts cannot be read is skipped (and said once). */
export async function evaluateAlertRules(now = new Date()): Promise<TEvaluation> {
  const db = await getDb();
  const rules = await db.select().from(r).where(eq(r.enabled, true));
  const result: TEvaluation = { rules: rules.length, fired: 0, cleared: 0, errors: [] };
  const said = errorsSaid;
  for (const rule of rules) {
    try {
      const { fired, cleared } = await evaluateRule(rule, now);
      result.fired += fired;
      result.cleared += cleared;
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
