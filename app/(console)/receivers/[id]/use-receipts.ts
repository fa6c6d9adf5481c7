'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson, type FetchJsonError } from '@/components/console/fetch-json';
import type { receiptJson } from '@/lib/console/receivers';

// One page of a receiver's receipt log, re-read every 2 s, from GET /api/receivers/{id}/receipts.

export type TReceiptJson = ReturnType<typeof receiptJson>;
export type TReceiptPage = { results: TReceiptJson[]; nextPageToken?: string };

export const RECEIPTS_POLL_MS = 2000;

export function receiptsUrl(receiverId: string, { q, pageToken }: { q?: string; pageToken?: string }): string {
  const qs = new URLSearchParams();
  if (q) qs.set('q', q);
  if (pageToken) qs.set('pageToken', pageToken);
  return `/api/receivers/${encodeURIComponent(receiverId)}/receipts?${qs}`;
}

export function useReceipts(receiverId: string, query: { q?: string; pageToken?: string }, initial: TReceiptPage, readAt: string) {
  return useQuery<TReceiptPage, FetchJsonError>({
    queryKey: ['receiver', receiverId, 'receipts', query.q ?? '', query.pageToken ?? ''],
    queryFn: ({ signal }) => fetchJson<TReceiptPage>(receiptsUrl(receiverId, query), { signal }),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(readAt),
    refetchInterval: RECEIPTS_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
  });
}
