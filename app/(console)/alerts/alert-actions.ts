'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { acknowledgeAlert, snoozeAlert, ZAcknowledge, ZSnooze } from '@/lib/console/alerts/acknowledge-alert';
import { requireRole } from '@/lib/console/staff/session';
import { recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';
import { actionErrorInfo, type TActionResult } from '@/app/(console)/_lib/errors';

// Acknowledge or snooze a firing alert from the alerts page: operators and admins, audited, as
// POST /api/alerts/{id}/acknowledge and /snooze.

const ZId = z.uuid({ message: 'Unknown alert.' });

export async function acknowledgeAlertAction(id: string, note: string): Promise<TActionResult> {
  const staff = await requireRole('operator', '/alerts');
  const parsed = z.object({ id: ZId }).extend(ZAcknowledge.shape).safeParse({ id, note });
  if (!parsed.success) return { ok: false, error: { message: `${parsed.error.issues[0].path.join('.')} ${parsed.error.issues[0].message}` } };
  try {
    await acknowledgeAlert(staff.environment, parsed.data.id, staff.email, parsed.data.note);
    await recordAudit(await getDb(), { actor: staff, action: 'alert.acknowledge', target: [parsed.data.id], result: 'ok', detail: { note: parsed.data.note ?? null } });
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
  revalidatePath('/alerts');
  return { ok: true, notice: 'Acknowledged: it stays firing, without reminders, until it resolves.' };
}

export async function snoozeAlertAction(id: string, hours: number): Promise<TActionResult> {
  const staff = await requireRole('operator', '/alerts');
  const parsed = z.object({ id: ZId }).extend(ZSnooze.shape).safeParse({ id, hours });
  if (!parsed.success) return { ok: false, error: { message: `${parsed.error.issues[0].path.join('.')} ${parsed.error.issues[0].message}` } };
  try {
    const alert = await snoozeAlert(staff.environment, parsed.data.id, parsed.data.hours);
    await recordAudit(await getDb(), { actor: staff, action: 'alert.snooze', target: [parsed.data.id], result: 'ok', detail: { hours: parsed.data.hours, until: alert.snoozedUntil } });
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
  revalidatePath('/alerts');
  return { ok: true, notice: `Snoozed for ${parsed.data.hours} h.` };
}
