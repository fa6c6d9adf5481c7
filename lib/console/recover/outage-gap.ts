import type { ConnectApi } from '@/lib/console/connect-api/client';
import { isUnsupported } from '@/lib/console/connect-api/errors';
import type { TOutageGap, TWindow } from './gap-words';

export type { TOutageGap } from './gap-words';

// A webhook's last outage and what it left behind (also read by the worker process's alert
// evaluator, so no 'server-only' here), from the service over HTTP: its newest
// `webhook.disabled` event (tag `webhook:<id>`: when, and the failing stretch before it) and the
// `webhook.recovered` that re-enabled it. Two counts name the gap: the messages made while it was
// disabled that it never got (replay-missing over the disabled time) and the ones that failed for
// good (recover over the stretch and the disabled time). "Recover all" sends both; its preview is
// the sum of the same two counts over the same two windows.

/** The longest window the service recovers or replays (recover-window.ts's 14 days), less a minute of slack. */
const MAX_WINDOW_MS = 14 * 86_400_000 - 60_000;

/** How far before the stretch's start the failed-for-good messages are looked for. */
const FAILED_LOOKBACK_MS = 2 * 86_400_000;

const clamp = (since: string, until: string): TWindow => ({
  since: new Date(Math.max(Date.parse(since), Date.parse(until) - MAX_WINDOW_MS)).toISOString(),
  until,
});
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The webhook's newest outage within `lookbackMs`, with its two counts; null when none (or the service cannot tell). */
export async function findOutageGap(
  api: ConnectApi,
  webhookId: string,
  { disabled, lookbackMs = 7 * 86_400_000 }: { disabled: boolean; lookbackMs?: number },
): Promise<TOutageGap | null> {
  const after = new Date(Date.now() - lookbackMs).toISOString();
  const tag = `webhook:${webhookId}`;
  try {
    const [last] = (await api.get('/v1/messages', { params: { query: { tag, eventType: 'webhook.disabled', after, pageLimit: 1 } } })).results;
    if (!last) return null;
    const event = await api.get('/v1/messages/{id}', { params: { path: { id: last.id } } });
    const data = ((event.payload as { data?: Record<string, unknown> } | null)?.data ?? {}) as Record<string, unknown>;
    const disabledAt = str(data.disabledAt) ?? last.timestamp;
    const failingSince = str(data.failingSince);
    let enabledAt: string | null = null;
    if (!disabled) {
      const recovered = (await api.get('/v1/messages', { params: { query: { tag, eventType: 'webhook.recovered', after: last.timestamp, pageLimit: 100 } } }))
        .results;
      enabledAt = recovered.at(-1)?.timestamp ?? null; // newest first: the first after the disable
      if (!enabledAt) return null;
    }
    const until = enabledAt ?? new Date().toISOString();
    const missingWindow = clamp(disabledAt, until);
    // A message that failed for good in the stretch was made up to its retry schedule before the
    // stretch began (the default schedule spans about 28 h): two days before it, within 14 days.
    const stretchStart = Date.parse(failingSince && failingSince < disabledAt ? failingSince : disabledAt);
    const failedWindow = clamp(new Date(stretchStart - FAILED_LOOKBACK_MS).toISOString(), until);
    const [missing, failed] = await Promise.all([
      api.get('/v1/webhooks/{id}/replay-missing', { params: { path: { id: webhookId }, query: missingWindow } }),
      api.get('/v1/webhooks/{id}/recover', { params: { path: { id: webhookId }, query: failedWindow } }),
    ]);
    return { webhookId, disabledAt, enabledAt, failingSince, missing: missing.messages, failed: failed.messages, missingWindow, failedWindow };
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}
