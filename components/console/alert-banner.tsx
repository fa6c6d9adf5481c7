'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/components/console/fetch-json';
import type { TAlertSubject } from '@/lib/console/alerts/alert-subject';

// Shown on every console page (the layout) while an alert fires: the oldest one's rule and what it
// is about (a webhook by its description or URL, linked to its page), and a link to the alerts. The
// layout renders once per visit, so the banner polls the count itself.

const POLL_MS = 10_000;

type TFiring = { firing: number; oldestFiringId: string | null; oldestFiring: { ruleName: string; about: TAlertSubject } | null };

export function AlertBanner({ initial }: { initial: TFiring }) {
  const { data } = useQuery<TFiring>({
    queryKey: ['alerts-firing'],
    queryFn: ({ signal }) => fetchJson<TFiring>('/api/alerts?summary=1', { signal }),
    initialData: initial,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
  const { firing: count, oldestFiringId, oldestFiring: oldest } = data ?? initial;
  if (count === 0) return null;
  return (
    <div role="alert" data-testid="alert-banner" className="break-words bg-amber-400 px-4 py-1 text-center text-xs font-medium text-amber-950">
      {count === 1 ? 'An alert is firing' : `${count} alerts are firing`}
      {oldest ? (
        <>
          {count === 1 ? ': ' : ', the oldest: '}“{oldest.ruleName}” for{' '}
          <Link href={oldest.about.href} className="underline underline-offset-2" data-testid="alert-banner-subject">
            {oldest.about.label}
          </Link>
        </>
      ) : null}
      .{' '}
      <Link href={oldestFiringId ? `/alerts#alert-${oldestFiringId}` : '/alerts'} className="underline underline-offset-2">
        See {count === 1 ? 'it' : 'them'}
      </Link>
    </div>
  );
}
