'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson, type FetchJsonError } from '@/components/console/fetch-json';
import type { TMessageDetail } from '@/lib/console/timeline/timeline-types';
import { webhookQueriesKey } from './use-timeline';

// One message at one webhook in full (every attempt with its response, the receipts), polled while
// its row is open.

export const MESSAGE_POLL_MS = 2000;

export const messageDetailKey = (webhookId: string, messageId: string) => [...webhookQueriesKey(webhookId), 'message', messageId] as const;

export function useMessageDetail(webhookId: string, messageId: string) {
  return useQuery<TMessageDetail, FetchJsonError>({
    queryKey: messageDetailKey(webhookId, messageId),
    queryFn: ({ signal }) => fetchJson<TMessageDetail>(`/api/webhooks/${encodeURIComponent(webhookId)}/messages/${encodeURIComponent(messageId)}`, { signal }),
    refetchInterval: MESSAGE_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
  });
}
