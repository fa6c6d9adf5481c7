'use server';

import { z } from 'zod';
import type { TRecoverPreview, TRecoverRun, TRetryPendingPreview, TRetryPendingResult } from '@/lib/console/connect-api';
import { plural } from '@/lib/console/format';
import { runResendDelivered, runRetryNow } from '@/lib/console/recover/audited-runs';
import { findResendable, type TResendPreview } from '@/lib/console/recover/find-resendable';
import { parseResendWindow } from '@/lib/console/recover/recover-window';
import type { TResendRun } from '@/lib/console/recover/resend-delivered';
import { staffAction } from '@/lib/console/staff/staff-action';

// A webhook's recover card: for each kind (failed for good, waiting for a retry, delivered but failed
// at this console's receiver) the preview count and the run (audited); a recover's progress. The
// window is checked by the API or the console's recover window (a 400 naming since or until shows
// under the form). staffAction re-checks the session and the operator role of each.

const ZWebhookId = z.string().min(1).max(200);
const ZRunId = z.string().min(1).max(200);
const ZWindow = z
  .object({ since: z.string().min(1).max(40), until: z.string().max(40).optional() })
  .transform((w) => ({ since: w.since, ...(w.until ? { until: w.until } : {}) }));
// The console's own recover window is parsed by parseResendWindow (its own 400s).
const ZLooseWindow = z.object({ since: z.string(), until: z.string().optional() });
const operator = 'operator' as const;
const byWindow = { role: operator, input: z.tuple([ZWebhookId, ZWindow]) };
const byLooseWindow = { role: operator, input: z.tuple([ZWebhookId, ZLooseWindow]) };

export const previewRecoverAction = staffAction(byWindow, async ({ api, input: [webhookId, window] }): Promise<{ data: TRecoverPreview }> => ({
  data: await api.get('/v1/webhooks/{id}/recover', { params: { path: { id: webhookId }, query: window } }),
}));

export const startRecoverAction = staffAction(
  { ...byWindow, audit: { action: 'webhook.recover', target: ([webhookId]) => [webhookId], detail: ([, w]) => ({ since: w.since, until: w.until ?? null }) } },
  async ({ api, input: [webhookId, window], audit }): Promise<{ data: TRecoverRun; notice: string }> => {
    const run = await api.post('/v1/webhooks/{id}/recover', { params: { path: { id: webhookId } }, body: window });
    audit({ target: [webhookId, run.id], detail: { messages: run.messages } });
    return { data: run, notice: `${plural(run.messages, 'failed message')} queued to be re-sent.` };
  },
);

export const recoverProgressAction = staffAction(
  { role: operator, input: z.tuple([ZWebhookId, ZRunId]) },
  async ({ api, input: [webhookId, runId] }): Promise<{ data: TRecoverRun }> => ({
    data: await api.get('/v1/webhooks/{id}/recover/{runId}', { params: { path: { id: webhookId, runId } } }),
  }),
);

/** "Retry now": how many messages of the window wait for a retry. */
export const previewRetryNowAction = staffAction(byWindow, async ({ api, input: [webhookId, window] }): Promise<{ data: TRetryPendingPreview }> => ({
  data: await api.get('/v1/webhooks/{id}/retry-pending', { params: { path: { id: webhookId }, query: window } }),
}));

/** "Retry now": attempts them now (audited); each one's schedule resumes after its attempt. */
export const retryNowAction = staffAction(
  byWindow,
  async ({ staff, api, input: [webhookId, window] }): Promise<{ data: TRetryPendingResult; notice: string }> => {
    const result = await runRetryNow(staff, api, webhookId, window);
    return { data: result, notice: `${plural(result.messages, 'message')} attempted now.` };
  },
);

/** "Re-send": the delivered messages whose arrival at this console's receiver failed, counted. */
export const previewResendDeliveredAction = staffAction(
  byLooseWindow,
  async ({ staff, api, input: [webhookId, window] }): Promise<{ data: TResendPreview }> => {
    const found = await findResendable(staff.environment, api, webhookId, parseResendWindow(window));
    return { data: { messages: found.messageIds.length, truncated: found.truncated, receiver: found.receiver, disabled: found.disabled } };
  },
);

/** "Re-send": each of them once through the API's resend, in one run (audited). */
export const resendDeliveredAction = staffAction(
  byLooseWindow,
  async ({ staff, api, input: [webhookId, window] }): Promise<{ data: TResendRun; notice: string }> => {
    const run = await runResendDelivered(staff, api, webhookId, parseResendWindow(window));
    return { data: run, notice: `${plural(run.messages, 'message')} re-sent.` };
  },
);
