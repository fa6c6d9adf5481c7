import 'server-only';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import type { ConnectApi, TRetryPendingResult } from '@/lib/console/connect-api';
import { getDb } from '@/lib/db/client';
import type { TStaff } from '../staff/session';
import { resendDelivered, type TResendRun } from './resend-delivered';
import type { TResendWindow } from './recover-window';

// The two runs staff start from a webhook's recover card beside the service's recover, each written
// to the audit log once its outcome is known (a failure too, with its code), by the server action
// and the JSON route alike. The session is the caller's to check (staffApi / withStaff).

/** Re-sends the window's delivered-but-troubled messages (lib/console/recover/resend-delivered.ts), audited. */
export async function runResendDelivered(staff: TStaff, api: ConnectApi, webhookId: string, window: TResendWindow): Promise<TResendRun> {
  const detail = { since: window.since.toISOString(), until: window.until.toISOString() };
  try {
    const run = await resendDelivered(staff.environment, api, webhookId, window);
    const { messages, succeeded, failed, refused, skipped, verified } = run;
    await recordAudit(await getDb(), {
      actor: staff,
      action: 'webhook.resend-delivered',
      target: [webhookId, run.id],
      result: 'ok',
      detail: { ...detail, messages, succeeded, failed, refused, skipped, verified },
    });
    return run;
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.resend-delivered', target: [webhookId], result: auditResultOf(err), detail });
    throw err;
  }
}

/** Attempts now the window's messages waiting for a retry (EXT POST …/retry-pending), audited. */
export async function runRetryNow(staff: TStaff, api: ConnectApi, webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingResult> {
  const detail = { since: window.since, until: window.until ?? null };
  try {
    const result = await api.retryPendingNow(webhookId, window);
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.retry-now', target: [webhookId], result: 'ok', detail: { ...detail, messages: result.messages } });
    return result;
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.retry-now', target: [webhookId], result: auditResultOf(err), detail });
    throw err;
  }
}
