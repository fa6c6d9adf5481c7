'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createAlertRule, deleteAlertRule, setAlertRuleEnabled } from '@/lib/console/alerts/alert-rules';
import { ZAlertRuleInput } from '@/lib/console/alerts/rule-schemas';
import { requireRole } from '@/lib/console/staff/session';
import { fieldErrorsOf, type TActionResult, type TFormState } from '@/app/(console)/_lib/errors';
import { recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';

const FIELDS = ['name', 'kind', 'webhookId', 'threshold', 'window', 'minAttempts', 'targetUrl'] as const;

/** Creates a rule; the state carries its signing secret this once (the form shows it, nothing keeps it). */
export async function createAlertRuleAction(prev: TFormState, formData: FormData): Promise<TFormState & { secret?: string }> {
  const staff = await requireRole('admin', '/alerts');
  const raw = Object.fromEntries(FIELDS.map((k) => [k, String(formData.get(k) ?? '')]));
  const nonce = (prev.nonce ?? 0) + 1;
  // Fields the chosen kind does not show arrive empty: absent, so their defaults apply.
  const present = Object.fromEntries(Object.entries(raw).filter(([, v]) => v.trim() !== ''));
  const parsed = ZAlertRuleInput.safeParse(present);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  try {
    const { rule, secret } = await createAlertRule(staff.environment, parsed.data);
    await recordAudit(await getDb(), { actor: staff, action: 'alert-rule.create', target: [rule.id], result: 'ok', detail: { name: rule.name, kind: rule.kind } });
    revalidatePath('/alerts');
    return { ok: true, notice: `Rule “${rule.name}” created. Copy its signing secret now: it is not shown again.`, secret, nonce };
  } catch (err) {
    const error = actionErrorInfo(err);
    return { error, fieldErrors: Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message])), values: raw, nonce };
  }
}

const ZToggle = z.object({ id: z.uuid({ message: 'Unknown rule.' }), enabled: z.boolean() });

export async function setAlertRuleEnabledAction(id: string, enabled: boolean): Promise<TActionResult> {
  const staff = await requireRole('admin', '/alerts');
  const parsed = ZToggle.safeParse({ id, enabled });
  if (!parsed.success) return { ok: false, error: { message: parsed.error.issues[0].message } };
  try {
    await setAlertRuleEnabled(staff.environment, parsed.data.id, parsed.data.enabled);
    await recordAudit(await getDb(), { actor: staff, action: 'alert-rule.update', target: [parsed.data.id], result: 'ok', detail: { enabled: parsed.data.enabled } });
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
  revalidatePath('/alerts');
  return { ok: true, notice: enabled ? 'Rule enabled.' : 'Rule disabled; its firing alerts are cleared.' };
}

const ZDelete = z.object({ id: z.uuid({ message: 'Unknown rule.' }) });

export async function deleteAlertRuleAction(id: string): Promise<TActionResult> {
  const staff = await requireRole('admin', '/alerts');
  const parsed = ZDelete.safeParse({ id });
  if (!parsed.success) return { ok: false, error: { message: parsed.error.issues[0].message } };
  try {
    await deleteAlertRule(staff.environment, parsed.data.id);
    await recordAudit(await getDb(), { actor: staff, action: 'alert-rule.delete', target: [parsed.data.id], result: 'ok' });
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
  revalidatePath('/alerts');
  return { ok: true, notice: 'Rule deleted, with its alerts.' };
}
