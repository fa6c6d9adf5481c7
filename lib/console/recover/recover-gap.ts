import 'server-only';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import type { ConnectApi, TRecoverRun } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import type { TStaff } from '../staff/session';
import { findOutageGap } from './outage-gap';

// "Recover all" of a webhook's outage gap: the messages made while it was disabled that it never
// got (replay-missing) and the ones that failed for good (recover), over the windows the preview
// counts (read again here, so what is sent is what the service counts now), audited as one action
// with both runs; then their progress. By the server action and the JSON route alike; the session
// and role are the caller's to check (staffAction / withStaff).

export type TGapRuns = { replay: TRecoverRun | null; recover: TRecoverRun | null };

export async function runRecoverGap(staff: TStaff, api: ConnectApi, webhookId: string): Promise<TGapRuns & { missing: number; failed: number }> {
  let detail: Record<string, string | number | null> = {};
  try {
    const webhook = await api.get('/v1/webhooks/{id}', { params: { path: { id: webhookId } } });
    const gap = await findOutageGap(api, webhookId, { disabled: webhook.disabled });
    if (webhook.disabled) throw new ApiError('conflict', 'The webhook is disabled: enable it before recovering what it missed.');
    if (!gap?.enabledAt) throw new ApiError('conflict', 'The webhook has no outage to recover in the last 7 days.');
    detail = {
      missingSince: gap.missingWindow.since,
      failedSince: gap.failedWindow.since,
      until: gap.missingWindow.until,
      missing: gap.missing,
      failed: gap.failed,
    };
    const [replay, recover] = await Promise.all([
      gap.missing > 0 ? api.post('/v1/webhooks/{id}/replay-missing', { params: { path: { id: webhookId } }, body: gap.missingWindow }) : null,
      gap.failed > 0 ? api.post('/v1/webhooks/{id}/recover', { params: { path: { id: webhookId } }, body: gap.failedWindow }) : null,
    ]);
    const sent = (replay?.messages ?? 0) + (recover?.messages ?? 0);
    const runs = [replay?.id, recover?.id].filter((x): x is string => Boolean(x));
    await recordAudit({ actor: staff, action: 'webhook.recover-all', target: [webhookId, ...runs], result: 'ok', detail: { ...detail, sent } });
    return { replay, recover, missing: gap.missing, failed: gap.failed };
  } catch (err) {
    await recordAudit({ actor: staff, action: 'webhook.recover-all', target: [webhookId], result: auditResultOf(err), detail });
    throw err;
  }
}

/** Both runs' progress (either may be absent). */
export async function gapProgress(api: ConnectApi, webhookId: string, ids: { replay: string | null; recover: string | null }): Promise<TGapRuns> {
  const [replay, recover] = await Promise.all([
    ids.replay ? api.get('/v1/webhooks/{id}/replay-missing/{runId}', { params: { path: { id: webhookId, runId: ids.replay } } }) : null,
    ids.recover ? api.get('/v1/webhooks/{id}/recover/{runId}', { params: { path: { id: webhookId, runId: ids.recover } } }) : null,
  ]);
  return { replay, recover };
}
