'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/app/(console)/_lib/fetch-json';

// Shown on every console page (the layout) while an alert fires; links to the oldest one. The
// layout renders once per visit, so the banner polls the count itself.

const POLL_MS = 10_000;

type TFiring = { firing: number; oldestFiringId: string | null };

export function AlertBanner({ initial }: { initial: TFiring }) {
  const { data } = useQuery<TFiring>({
    queryKey: ['alerts-firing'],
    queryFn: ({ signal }) => fetchJson<TFiring>('/api/alerts?summary=1', { signal }),
    initialData: initial,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
  const { firing: count, oldestFiringId } = data ?? initial;
  if (count === 0) return null;
  return (
    <div role="alert" data-testid="alert-banner" className="bg-amber-400 px-4 py-1 text-center text-xs font-medium text-amber-950">
      {count === 1 ? 'An alert is firing.' : `${count} alerts are firing.`}{' '}
      <Link href={oldestFiringId ? `/alerts#alert-${oldestFiringId}` : '/alerts'} className="underline underline-offset-2">
        See {count === 1 ? 'it' : 'them'}
      </Link>
    </div>
  );
}
