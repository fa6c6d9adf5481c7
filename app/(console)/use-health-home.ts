'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson, type FetchJsonError } from '@/components/console/fetch-json';
import { useLivePaused } from '@/components/console/live-pause';
import { healthPollMs, type THealthHome, type THealthWindow } from '@/lib/console/health/health-types';

/** Stats are aggregates over a window: a few seconds between polls is live enough and spares the API. */
export const HEALTH_POLL_MS = 5000;

export function useHealthHome(win: THealthWindow, initial: THealthHome | null) {
  const paused = useLivePaused();
  return useQuery<THealthHome, FetchJsonError>({
    queryKey: ['health-home', win],
    queryFn: ({ signal }) => fetchJson<THealthHome>(`/api/webhook-health?window=${win}`, { signal }),
    initialData: initial && initial.window === win ? initial : undefined,
    initialDataUpdatedAt: initial ? Date.parse(initial.fetchedAt) : undefined,
    // Backs off when a read is slow (a large account): four times the last read, 5 s to a minute.
    refetchInterval: (query) => (paused ? false : healthPollMs(query.state.data?.readMs)),
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
    retry: false,
  });
}
