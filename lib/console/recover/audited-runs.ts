import 'server-only';
import { audited } from '@/lib/console/audit/audited';
import type { ConnectApi, TRetryPendingResult } from '@/lib/console/connect-api';
import type { TStaff } from '../staff/session';
import { resendDelivered, type TResendRun } from './resend-delivered';
import type { TResendWindow } from './recover-window';

// The two runs staff start from a webhook's recover card beside the service's recover, each written
// to the audit log once its outcome is known (a failure too, with its code), by the server action
// and the JSON route alike. The session is the caller's to check (staffAction / withStaff).

/** Re-sends the window's delivered-but-troubled messages (lib/console/recover/resend-delivered.ts), audited. */
export function runResendDelivered(staff: TStaff, api: ConnectApi, webhookId: string, window: TResendWindow): Promise<TResendRun> {
  const detail = { since: window.since.toISOString(), until: window.until.toISOString() };
  return audited(staff, 'webhook.resend-delivered', { target: [webhookId], detail }, async (note) => {
    const run = await resendDelivered(staff.environment, api, webhookId, window);
    const { messages, succeeded, failed, refused, skipped, verified } = run;
    note({ target: [webhookId, run.id], detail: { messages, succeeded, failed, refused, skipped, verified } });
    return run;
  });
}

/** Attempts now the window's messages waiting for a retry (EXT POST …/retry-pending), audited. */
export function runRetryNow(staff: TStaff, api: ConnectApi, webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingResult> {
  return audited(staff, 'webhook.retry-now', { target: [webhookId], detail: { since: window.since, until: window.until ?? null } }, async (note) => {
    const result = await api.post('/v1/webhooks/{id}/retry-pending', { params: { path: { id: webhookId } }, body: window });
    note({ detail: { messages: result.messages } });
    return result;
  });
}
