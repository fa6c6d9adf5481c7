import type { ConnectApi } from '@/lib/console/connect-api/client';
import type { TWebhook } from '@/lib/console/connect-api/types';
import { mapLimit } from '@/lib/console/map-limit';
import { toWebhookView } from '@/lib/console/webhooks/webhook-view';
import type { TAlertRuleRow } from './rule-schemas';

// "Paused for longer than N hours" (EXT pause): a pause is meant to be short — while an integrator
// fixes their endpoint — and nothing else reminds anyone of one left on: a paused webhook never
// fails and is never disabled, its grants simply queue. Fires for each webhook in scope paused at
// least N hours (not disabled: the "webhook disabled" rule speaks for that), with who paused it
// (this console's audit log) and how much waits; resolves when it is resumed.

const PARALLEL = 8;

export async function pausedConditions(api: ConnectApi, rule: TAlertRuleRow, webhooks: TWebhook[], now: Date): Promise<Map<string, Record<string, unknown>>> {
  const longPaused = webhooks.filter((w) => w.paused && w.pausedAt && !w.disabled && now.getTime() - Date.parse(w.pausedAt) >= rule.threshold * 3_600_000);
  if (longPaused.length === 0) return new Map();
  // Loaded here, not at the top: it reads the console's store (server-only), which the rules' pure parts (dueForRepeat, tested alone) do not need.
  const { withPausedBy } = await import('@/lib/console/webhooks/paused-by');
  const views = await withPausedBy(longPaused.map(toWebhookView));
  const found = await mapLimit(views, PARALLEL, async (w) => {
    const backlog = await api
      .get('/v1/webhooks/{id}/stats', { params: { path: { id: w.id }, query: { window: '1h' } } })
      .then((s) => s.backlog)
      .catch(() => null);
    const facts = {
      webhookId: w.id,
      url: w.url,
      description: w.description,
      pausedAt: w.pausedAt,
      pausedBy: w.pausedBy ?? null,
      pausedHours: rule.threshold,
      waiting: backlog ? backlog.pending + backlog.sending : null,
    };
    return [`webhook:${w.id}`, facts] as const;
  });
  return new Map(found);
}
