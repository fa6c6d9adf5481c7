'use server';

import { z } from 'zod';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo, isUnsupportedError } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/errors';
import type { TRecoverPreview, TRecoverRun } from '@/lib/console/connect-api';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';

// "Recover failed messages" on a webhook's page: the preview count, the start (audited), the progress.
// The window is checked by the API (a 400 naming since or until shows under the form).

const ZWebhookId = z.string().min(1).max(200);
const ZRunId = z.string().min(1).max(200);
const ZWindow = z.object({ since: z.string().min(1).max(40), until: z.string().max(40).optional() });
const invalid: TActionResult<never> = { ok: false, error: { message: 'Invalid request.' } };

const windowOf = (w: { since: string; until?: string }) => ({ since: w.since, ...(w.until ? { until: w.until } : {}) });

export async function previewRecoverAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRecoverPreview>> {
  const { api } = await staffApi();
  const w = ZWindow.safeParse(window);
  if (!ZWebhookId.safeParse(webhookId).success || !w.success) return invalid;
  try {
    return { ok: true, data: await api.previewRecover(webhookId, windowOf(w.data)) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err), unsupported: isUnsupportedError(err) };
  }
}

export async function startRecoverAction(webhookId: string, window: { since: string; until?: string }): Promise<TActionResult<TRecoverRun>> {
  const { staff, api } = await staffApi();
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
  const { api } = await staffApi();
  if (!ZWebhookId.safeParse(webhookId).success || !ZRunId.safeParse(runId).success) return invalid;
  try {
    return { ok: true, data: await api.getRecoverRun(webhookId, runId) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
