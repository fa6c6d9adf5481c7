'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson, type FetchJsonError } from '@/components/console/fetch-json';
import { useLivePaused } from '@/components/console/live-pause';
import type { TTimeline, TTimelineFilters } from '@/lib/console/timeline/timeline-types';

// One page of a webhook's timeline, polled. The table, the cards, the header's status badge and the
// header's buttons all read this one query (react-query shares it), so they never disagree.

export const TIMELINE_POLL_MS = 1000;

const FILTER_KEYS = ['status', 'eventType', 'after', 'before', 'pageToken'] as const;

/** Every query of this webhook (pages and opened messages): invalidate this after a change. */
export const webhookQueriesKey = (webhookId: string) => ['webhook', webhookId] as const;
/** Every timeline page of this webhook, whatever its filters. */
export const timelinePagesKey = (webhookId: string) => [...webhookQueriesKey(webhookId), 'timeline'] as const;
export const timelineKey = (webhookId: string, filters: TTimelineFilters) =>
  [...timelinePagesKey(webhookId), ...FILTER_KEYS.map((k) => filters[k] ?? '')] as const;

/** The search string of these filters (no pageLimit: the route's default page size is the page's). */
export function timelineSearch(filters: TTimelineFilters, extra: Partial<Record<(typeof FILTER_KEYS)[number], string | null>> = {}): URLSearchParams {
  const qs = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = k in extra ? extra[k] : filters[k];
    if (v) qs.set(k, v);
  }
  return qs;
}

export function useTimeline(webhookId: string, filters: TTimelineFilters, initial: TTimeline) {
  const paused = useLivePaused();
  return useQuery<TTimeline, FetchJsonError>({
    queryKey: timelineKey(webhookId, filters),
    queryFn: ({ signal }) => fetchJson<TTimeline>(`/api/webhooks/${encodeURIComponent(webhookId)}/timeline?${timelineSearch(filters)}`, { signal }),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.fetchedAt),
    refetchInterval: paused ? false : TIMELINE_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
  });
}
