import type { ConnectApi } from '@/lib/console/connect-api/client';
import type { TAttempt, TWebhook } from '@/lib/console/connect-api/types';
import { disableWarning } from '@/lib/console/health/disable-warning';
import { mapLimit } from '@/lib/console/map-limit';
import { findOutageGap } from '@/lib/console/recover/outage-gap';
import type { TIncidentStage } from './incident-stage';
import type { TAlertRow, TAlertRuleRow } from './rule-schemas';

// The "about to be disabled" rule follows the incident to its end, read from the service over HTTP:
// it fires while the webhook's failing stretch passes the rule's share of the time before the service
// disables it (stage `failing`); an alert already firing stays firing once the webhook is disabled
// (stage `disabled`: the escalation, with the grants missed so far) and after it is enabled again
// until a delivery succeeds (stage `enabled`); it clears ("recovered") only when the webhook is
// enabled and a delivery has succeeded since the alert fired. Nothing reads as resolved while
// donations are being dropped.

const PARALLEL = 8;
const MESSAGES_FOR_ERROR = 10;

/** The newest failed attempt's answer among the webhook's newest messages: "500: crm database down", "no response"; null when none is known. */
async function lastError(api: ConnectApi, webhookId: string): Promise<string | null> {
  const page = await api.get('/v1/webhooks/{id}/messages', { params: { path: { id: webhookId }, query: { pageLimit: MESSAGES_FOR_ERROR } } }).catch(() => null);
  const message = page?.results.find((m) => m.lastAttempt && m.lastAttempt.status !== 'success');
  if (!message?.lastAttempt) return null;
  // The list leaves the response body out; the attempt itself has it.
  const attempt = await api
    .get('/v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId}', {
      params: { path: { id: webhookId, messageId: message.id, attemptId: message.lastAttempt.id } },
    })
    .catch((): TAttempt => message.lastAttempt!);
  const text = (attempt.response ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
  if (attempt.responseStatusCode === 0) return text || 'no response';
  return text ? `${attempt.responseStatusCode}: ${text}` : String(attempt.responseStatusCode);
}

type TFacts = Record<string, unknown>;

async function incidentFacts(api: ConnectApi, w: TWebhook, stage: TIncidentStage, open: TAlertRow | undefined, now: Date): Promise<TFacts | null> {
  const stats = await api.get('/v1/webhooks/{id}/stats', { params: { path: { id: w.id }, query: { window: '1h' } } });
  const warning = disableWarning({ ...w, eventTypes: w.eventTypes }, stats.backlog.pending + stats.backlog.sending, now.getTime());
  const before = (open?.details ?? {}) as TFacts;
  const facts: TFacts = {
    webhookId: w.id,
    url: w.url,
    description: w.description,
    stage,
    failingSince: w.failingSince ?? before.failingSince ?? null,
    disablesAt: stage === 'failing' ? w.disablesAt : null,
    percent: warning?.percent ?? before.percent ?? null,
    warning: warning?.sentence ?? null,
    waiting: stats.backlog.pending + stats.backlog.sending,
    lastError: (await lastError(api, w.id)) ?? before.lastError ?? null,
    lastSuccessAt: stats.lastSuccessAt,
  };
  if (stage === 'disabled' || stage === 'enabled') {
    const gap = await findOutageGap(api, w.id, { disabled: w.disabled }).catch(() => null);
    Object.assign(facts, {
      disabledAt: w.disabledAt ?? gap?.disabledAt ?? before.disabledAt ?? null,
      disabledReason: w.disabledReason ?? before.disabledReason ?? null,
      enabledAt: gap?.enabledAt ?? null,
      missed: gap ? gap.missing : null,
      failedForGood: gap ? gap.failed : null,
    });
  }
  return facts;
}

/** The stage of the incident for this webhook, or null when the rule's condition does not hold for it. */
function stageFor(w: TWebhook, rule: TAlertRuleRow, open: TAlertRow | undefined, lastSuccessAt: string | null, now: Date): TIncidentStage | null {
  if (w.disabled) return open ? 'disabled' : null;
  const warning = disableWarning(w, null, now.getTime());
  if (warning && warning.percent >= rule.threshold) return 'failing';
  if (!open) return null;
  const recovered = lastSuccessAt !== null && Date.parse(lastSuccessAt) > open.firedAt.getTime();
  return recovered ? null : 'enabled';
}

/** subject → facts, for the webhooks in scope whose incident is on (warning past the threshold, or an alert still open). */
export async function incidentConditions(
  api: ConnectApi,
  rule: TAlertRuleRow,
  webhooks: TWebhook[],
  open: Map<string, TAlertRow>,
  now: Date,
): Promise<Map<string, TFacts>> {
  const candidates = webhooks.filter((w) => open.has(`webhook:${w.id}`) || (!w.disabled && disableWarning(w, null, now.getTime())));
  const found = await mapLimit(candidates, PARALLEL, async (w) => {
    const subject = `webhook:${w.id}`;
    const o = open.get(subject);
    // Whether a delivery succeeded since the alert fired: only asked for an enabled webhook with an alert open.
    const lastSuccessAt =
      o && !w.disabled ? (await api.get('/v1/webhooks/{id}/stats', { params: { path: { id: w.id }, query: { window: '1h' } } })).lastSuccessAt : null;
    const stage = stageFor(w, rule, o, lastSuccessAt, now);
    return { subject, facts: stage ? await incidentFacts(api, w, stage, o, now) : null };
  });
  return new Map(found.filter((f) => f.facts).map((f) => [f.subject, f.facts as TFacts]));
}
