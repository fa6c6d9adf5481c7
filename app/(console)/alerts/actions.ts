'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createAlertRule, deleteAlertRule, setAlertRuleEnabled } from '@/lib/console/alerts/alert-rules';
import { ZAlertRuleInput } from '@/lib/console/alerts/rule-schemas';
import type { TFormState } from '@/lib/console/action-result';
import { errorFields, staffAction, staffFormAction } from '@/lib/console/staff/staff-action';

// The alerts page's actions (admins only): a rule created, switched on or off, deleted; each audited.

const FIELDS = ['name', 'kind', 'webhookId', 'threshold', 'window', 'minAttempts', 'targetUrl', 'targetFormat'] as const;
const admin = { role: 'admin', next: '/alerts' } as const;

// Fields the chosen kind does not show arrive empty: absent, so their defaults apply.
const ZForm = z.preprocess((raw) => Object.fromEntries(Object.entries(raw as Record<string, string>).filter(([, v]) => v.trim() !== '')), ZAlertRuleInput);

/** Creates a rule; the state carries its signing secret this once (the form shows it, nothing keeps it). */
export const createAlertRuleAction = staffFormAction<z.output<typeof ZForm>, TFormState & { secret?: string }>(
  {
    ...admin,
    read: (form) => Object.fromEntries(FIELDS.map((k) => [k, String(form.get(k) ?? '')])),
    input: ZForm,
    audit: { action: 'alert-rule.create' },
    // A refused target (a private address, an unknown scheme) is said once, at its field, not again in a callout.
    onError: (error) => (error.errors?.length ? { fieldErrors: errorFields(error) } : { error }),
  },
  async ({ staff, input, audit }) => {
    const { rule, secret } = await createAlertRule(staff.environment, input);
    audit({ target: [rule.id], detail: { name: rule.name, kind: rule.kind } });
    revalidatePath('/alerts');
    // An e-mail is not signed: no secret to copy, and no word about one.
    if (!secret) return { ok: true, notice: `Rule “${rule.name}” created. Its alerts are sent by e-mail to ${rule.targetUrl.slice('mailto:'.length)}.` };
    return { ok: true, notice: `Rule “${rule.name}” created. Copy its signing secret now: it is not shown again.`, secret };
  },
);

const ZRuleId = z.uuid({ message: 'Unknown rule.' });
const firstIssue = (e: z.ZodError) => e.issues[0].message;

export const setAlertRuleEnabledAction = staffAction(
  {
    ...admin,
    input: z.tuple([ZRuleId, z.boolean()]),
    invalid: firstIssue,
    audit: { action: 'alert-rule.update', target: ([id]) => [id], detail: ([, enabled]) => ({ enabled }) },
  },
  async ({ staff, input: [id, enabled] }) => {
    await setAlertRuleEnabled(staff.environment, id, enabled);
    revalidatePath('/alerts');
    return { notice: enabled ? 'Rule enabled.' : 'Rule disabled; its firing alerts are cleared.' };
  },
);

export const deleteAlertRuleAction = staffAction(
  { ...admin, input: z.tuple([ZRuleId]), invalid: firstIssue, audit: { action: 'alert-rule.delete', target: ([id]) => [id] } },
  async ({ staff, input: [id] }) => {
    await deleteAlertRule(staff.environment, id);
    revalidatePath('/alerts');
    return { notice: 'Rule deleted, with its alerts.' };
  },
);
