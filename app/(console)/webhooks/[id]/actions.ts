'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo, isUnsupportedError } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/errors';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';

const ZWebhookId = z.string().min(1).max(200);
const ZMessageId = z.string().min(1).max(200);
const invalid = (what: string): TActionResult<never> => ({ ok: false, error: { message: `Invalid ${what}.` } });

export async function sendTestEventAction(webhookId: string, eventType?: string): Promise<TActionResult<{ messageId: string }>> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success) return invalid('webhook id');
  if (eventType !== undefined && !z.string().min(1).max(100).safeParse(eventType).success) return invalid('event type');
  try {
    const message = await api.sendTestEvent(webhookId, eventType || undefined);
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.test', target: [webhookId, message.id], result: 'ok', detail: { eventType: message.eventType } });
    return { ok: true, data: { messageId: message.id }, notice: `Test event ${message.id} queued.` };
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.test', target: [webhookId], result: auditResultOf(err) });
    return { ok: false, error: actionErrorInfo(err) };
  }
}

export async function setWebhookDisabledAction(webhookId: string, disabled: boolean): Promise<TActionResult> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success || typeof disabled !== 'boolean') return invalid('request');
  const action = disabled ? 'webhook.disable' : 'webhook.enable';
  try {
    await api.updateWebhook(webhookId, { disabled });
    await recordAudit(await getDb(), { actor: staff, action, target: [webhookId], result: 'ok' });
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action, target: [webhookId], result: auditResultOf(err) });
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
  revalidatePath(`/webhooks/${webhookId}`);
  return { ok: true, notice: disabled ? 'Webhook disabled.' : 'Webhook enabled.' };
}

export async function resendMessageAction(webhookId: string, messageId: string): Promise<TActionResult<{ attemptId: string }>> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success || !ZMessageId.safeParse(messageId).success) return invalid('request');
  try {
    const attempt = await api.resendMessage(webhookId, messageId);
    await recordAudit(await getDb(), { actor: staff, action: 'message.resend', target: [webhookId, messageId, attempt.id], result: 'ok', detail: { attemptStatus: attempt.status } });
    return { ok: true, data: { attemptId: attempt.id }, notice: 'Resent.' };
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'message.resend', target: [webhookId, messageId], result: auditResultOf(err) });
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}
