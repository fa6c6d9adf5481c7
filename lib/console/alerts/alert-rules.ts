import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { ApiError, validationError } from '@/lib/http/errors';
import { alertTargetRefusal, isMailto } from './alert-target';
import { ZAlertRuleInput, type TAlertRuleInput, type TAlertRuleRow } from './rule-schemas';

// The alert rules of an environment: create (the signing secret is returned this once; none for a
// mailto: rule, whose e-mail is not signed), list,
// enable/disable, delete. Callers check the staff session first.

const r = schema.alertRules;

/** A rule as lists show it: everything but the secret. */
export type TAlertRuleJson = Omit<TAlertRuleRow, 'secret' | 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string };

export function alertRuleJson(row: TAlertRuleRow): TAlertRuleJson {
  const { secret: _secret, ...rest } = row;
  return { ...rest, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function createAlertRule(environment: string, input: TAlertRuleInput): Promise<{ rule: TAlertRuleJson; secret: string | null }> {
  const parsed = ZAlertRuleInput.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error, 'The alert rule');
  const data = parsed.data;
  const refusal = await alertTargetRefusal(data.targetUrl, data.targetFormat);
  if (refusal)
    throw new ApiError('bad_request', `Invalid alert rule: ${refusal.path} ${refusal.reason}.`, { errors: [{ path: refusal.path, message: refusal.reason }] });
  const secret = `${ID_PREFIX.webhookSecret}${randomBytes(32).toString('base64')}`;
  const db = await getDb();
  const [row] = await db
    .insert(r)
    .values({
      environment,
      name: data.name,
      kind: data.kind,
      webhookId: data.webhookId,
      threshold: data.kind === 'webhook_disabled' ? 0 : data.threshold,
      window: data.kind === 'success_rate' || data.kind === 'receiver_failures' ? data.window : null,
      minAttempts: data.minAttempts,
      targetUrl: data.targetUrl,
      targetFormat: isMailto(data.targetUrl) ? 'email' : data.targetFormat,
      secret,
      enabled: data.enabled,
    })
    .returning();
  return { rule: alertRuleJson(row), secret: row.targetFormat === 'email' ? null : secret };
}

export async function listAlertRules(environment: string): Promise<TAlertRuleRow[]> {
  const db = await getDb();
  return db.select().from(r).where(eq(r.environment, environment)).orderBy(desc(r.createdAt), desc(r.id));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (id: string) => new ApiError('not_found', `No alert rule with the id ${id}.`);

export async function setAlertRuleEnabled(environment: string, id: string, enabled: boolean): Promise<TAlertRuleJson> {
  if (!UUID.test(id)) throw notFound(id);
  const db = await getDb();
  const [row] = await db
    .update(r)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(r.id, id), eq(r.environment, environment)))
    .returning();
  if (!row) throw notFound(id);
  // A rule switched off stops speaking for its subjects: what it had firing is cleared (no POST).
  if (!enabled)
    await db
      .update(schema.alerts)
      .set({ clearedAt: new Date() })
      .where(and(eq(schema.alerts.ruleId, id), isNull(schema.alerts.clearedAt)));
  return alertRuleJson(row);
}

/** Deletes the rule and its alerts (a rule's history goes with it). */
export async function deleteAlertRule(environment: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound(id);
  const db = await getDb();
  const gone = await db
    .delete(r)
    .where(and(eq(r.id, id), eq(r.environment, environment)))
    .returning({ id: r.id });
  if (gone.length === 0) throw notFound(id);
}
