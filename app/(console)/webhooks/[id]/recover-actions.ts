'use server';

import { z } from 'zod';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo, isUnsupportedError } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/errors';
import type { TRecoverPreview, TRecoverRun, TRetryPendingPreview, TRetryPendingResult } from '@/lib/console/connect-api';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { runResendDelivered, runRetryNow } from '@/lib/console/recover/audited-runs';
import { findResendable, type TResendPreview } from '@/lib/console/recover/find-resendable';
import { parseResendWindow } from '@/lib/console/recover/recover-window';
import type { TResendRun } from '@/lib/console/recover/resend-delivered';
import { getDb } from '@/lib/db/client';

// A webhook's recover card: for each kind (failed for good, waiting for a retry, delivered but failed
// at this console's receiver) the preview count and the run (audited); a recover's progress. The
// window is checked by the API or the console's recover window (a 400 naming since or until shows
// under the form). Each action re-checks the staff session (staffApi).

const ZWebhookId = z.string().min(1).max(200);
const ZRunId = z.string().min(1).max(200);
const ZWindow = z.object({ since: z.string().min(1).max(40), until: z.string().max(40).optional() });
const invalid: TActionResult<never> = { ok: false, error: { message: 'Invalid request.' } };

const windowOf = (w: { since: string; until?: string }) => ({ since: w.since, ...(w.until ? { until: w.until } : {}) });

export async function previewRecoverAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRecoverPreview>> {
  const { api } = await staffApi('operator');
  const w = ZWindow.safeParse(window);
  if (!ZWebhookId.safeParse(webhookId).success || !w.success) return invalid;
  try {
    return { ok: true, data: await api.previewRecover(webhookId, windowOf(w.data)) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}

export async function startRecoverAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRecoverRun>> {
  const { staff, api } = await staffApi('operator');
  const w = ZWindow.safeParse(window);
  if (!ZWebhookId.safeParse(webhookId).success || !w.success) return invalid;
  const detail = { since: w.data.since, until: w.data.until ?? null };
  try {
    const run = await api.recoverMessages(webhookId, windowOf(w.data));
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.recover', target: [webhookId, run.id], result: 'ok', detail: { ...detail, messages: run.messages } });
    return { ok: true, data: run, notice: `${run.messages} failed message${run.messages === 1 ? '' : 's'} queued to be re-sent.` };
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.recover', target: [webhookId], result: auditResultOf(err), detail });
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}

export async function recoverProgressAction(webhookId: string, runId: string): Promise<TActionResult<TRecoverRun>> {
  const { api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success || !ZRunId.safeParse(runId).success) return invalid;
  try {
    return { ok: true, data: await api.getRecoverRun(webhookId, runId) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

/** "Retry now": how many messages of the window wait for a retry. */
export async function previewRetryNowAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRetryPendingPreview>> {
  const { api } = await staffApi('operator');
  const w = ZWindow.safeParse(window);
  if (!ZWebhookId.safeParse(webhookId).success || !w.success) return invalid;
  try {
    return { ok: true, data: await api.previewRetryPending(webhookId, windowOf(w.data)) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}

/** "Retry now": attempts them now (audited); each one's schedule resumes after its attempt. */
export async function retryNowAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRetryPendingResult>> {
  const { staff, api } = await staffApi('operator');
  const w = ZWindow.safeParse(window);
  if (!ZWebhookId.safeParse(webhookId).success || !w.success) return invalid;
  try {
    const result = await runRetryNow(staff, api, webhookId, windowOf(w.data));
    return { ok: true, data: result, notice: `${result.messages} message${result.messages === 1 ? '' : 's'} attempted now.` };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}

/** "Re-send": the delivered messages whose arrival at this console's receiver failed, counted. */
export async function previewResendDeliveredAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TResendPreview>> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success) return invalid;
  try {
    const found = await findResendable(staff.environment, api, webhookId, parseResendWindow(window));
    return { ok: true, data: { messages: found.messageIds.length, truncated: found.truncated, receiver: found.receiver, disabled: found.disabled } };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

/** "Re-send": each of them once through the API's resend, in one run (audited). */
export async function resendDeliveredAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TResendRun>> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success) return invalid;
  try {
    const run = await runResendDelivered(staff, api, webhookId, parseResendWindow(window));
    return { ok: true, data: run, notice: `${run.messages} message${run.messages === 1 ? '' : 's'} re-sent.` };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
