'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson, type FetchJsonError } from '@/components/console/fetch-json';
import { useLivePaused } from '@/components/console/live-pause';
import type { THealth, THealthWindow, TReceiverSide, TWebhookStats } from '@/lib/console/health/health-types';
import { HEALTH_POLL_MS } from '@/app/(console)/use-health-home';
import { webhookQueriesKey } from './use-timeline';

export type TStatsAnswer = { stats: TWebhookStats; receiver: TReceiverSide | null; health: THealth };

/** The webhook's stats over `win`, polled like the health home (and refreshed with the webhook's other queries). */
export function useWebhookStats(webhookId: string, win: THealthWindow) {
  const paused = useLivePaused();
  return useQuery<TStatsAnswer, FetchJsonError>({
    queryKey: [...webhookQueriesKey(webhookId), 'stats', win],
    queryFn: ({ signal }) => fetchJson<TStatsAnswer>(`/api/webhooks/${encodeURIComponent(webhookId)}/stats?window=${win}`, { signal }),
    refetchInterval: paused ? false : HEALTH_POLL_MS,
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
    retry: false,
  });
}
