import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { disableWarning, type TDisableWarning } from '@/lib/console/health/disable-warning';
import type { TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import { findOutageGap, type TOutageGap } from './outage-gap';

// What a webhook's page says about disabling, read over HTTP: the warning while it fails (with the
// messages waiting, from its stats' backlog) and the gap its last outage left.

export type TOutageView = { warning: TDisableWarning | null; gap: TOutageGap | null; noun: string };

/** "grant" for a webhook of grant events only, else "message". */
export const nounOf = (eventTypes: string[]) => (eventTypes.length > 0 && eventTypes.every((t) => t.startsWith('grant.')) ? 'grant' : 'message');

export async function loadOutage(api: ConnectApi, webhook: TTimelineWebhook): Promise<TOutageView> {
  const failing = !webhook.disabled && Boolean(webhook.failingSince && webhook.disablesAt);
  const [stats, gap] = await Promise.all([
    failing ? api.get('/v1/webhooks/{id}/stats', { params: { path: { id: webhook.id }, query: { window: '1h' } } }).catch(() => null) : null,
    findOutageGap(api, webhook.id, { disabled: webhook.disabled }).catch((err) => {
      if (isUnsupported(err)) return null;
      throw err;
    }),
  ]);
  const waiting = stats ? stats.backlog.pending + stats.backlog.sending : null;
  const warning = disableWarning(
    { disabled: webhook.disabled, failingSince: webhook.failingSince ?? null, disablesAt: webhook.disablesAt ?? null, eventTypes: webhook.eventTypes },
    waiting,
  );
  return { warning, gap, noun: nounOf(webhook.eventTypes) };
}
