import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { mapLimit } from '@/lib/console/map-limit';
import type { TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import { nounOf } from './load-outage';
import { findOutageGap, type TOutageGap } from './outage-gap';

// The health home's outages: the webhooks the service disabled in the last day (one read of the
// account's `webhook.disabled` messages), each with the gap it left (outage-gap.ts); only those
// still disabled, or with messages left to recover.

const LOOKBACK_MS = 86_400_000;

export async function recentGaps(api: ConnectApi, webhooks: TTimelineWebhook[]): Promise<(TOutageGap & { name: string; noun: string })[]> {
  const after = new Date(Date.now() - LOOKBACK_MS).toISOString();
  const events = (await api.get('/v1/messages', { params: { query: { eventType: 'webhook.disabled', after, pageLimit: 100 } } })).results;
  const ids = new Set(events.flatMap((m) => (m.tags ?? []).filter((t) => t.startsWith('webhook:')).map((t) => t.slice('webhook:'.length))));
  const known = webhooks.filter((w) => ids.has(w.id));
  const found = await mapLimit(known, 4, async (w) => {
    const gap = await findOutageGap(api, w.id, { disabled: w.disabled, lookbackMs: LOOKBACK_MS }).catch(() => null);
    return gap ? { ...gap, name: w.description || w.url, noun: nounOf(w.eventTypes) } : null;
  });
  return found.filter((g): g is NonNullable<typeof g> => g !== null && (!g.enabledAt || g.missing + g.failed > 0));
}
