'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/components/console/fetch-json';
import type { TAlertSubject } from '@/lib/console/alerts/alert-subject';
import { formatUtcMinute } from '@/lib/console/format';

// Shown on every console page (the layout) while an alert fires: the oldest one nobody has quieted
// (its rule and what it is about, a webhook by its description or URL, linked to its page), and a
// link to the alerts. When staff acknowledged or snoozed every firing alert, the banner is calm and
// says who took the one it names, and when. The layout renders once per visit, so the banner polls.

const POLL_MS = 10_000;

type TFiring = {
  firing: number;
  quietFiring: number;
  oldestFiringId: string | null;
  oldestFiring: { ruleName: string; about: TAlertSubject; acknowledgedBy: string | null; acknowledgedAt: string | null; snoozedUntil: string | null } | null;
};

const when = (iso: string) => `${formatUtcMinute(iso)} UTC`;

export function AlertBanner({ initial }: { initial: TFiring }) {
  const { data } = useQuery<TFiring>({
    queryKey: ['alerts-firing'],
    queryFn: ({ signal }) => fetchJson<TFiring>('/api/alerts?summary=1', { signal }),
    initialData: initial,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
  const { firing: count, quietFiring = 0, oldestFiringId, oldestFiring: oldest } = data ?? initial;
  if (count === 0) return null;
  const allQuiet = quietFiring >= count;
  const quietNote =
    oldest?.acknowledgedBy && oldest.acknowledgedAt
      ? ` — acknowledged by ${oldest.acknowledgedBy} at ${when(oldest.acknowledgedAt)}`
      : oldest?.snoozedUntil
        ? ` — snoozed until ${when(oldest.snoozedUntil)}`
        : '';
  return (
    <div
      role={allQuiet ? 'status' : 'alert'}
      data-testid="alert-banner"
      data-quiet={allQuiet ? 'true' : 'false'}
      className={`break-words px-4 py-1 text-center text-xs font-medium ${allQuiet ? 'bg-slate-200 text-slate-800' : 'bg-amber-400 text-amber-950'}`}
    >
      {count === 1 ? 'An alert is firing' : `${count} alerts are firing`}
      {/* On a phone the banner is one line (the header stays within 80 px): the count and the link; the rest is on /alerts. */}
      <span className="max-sm:hidden">{quietFiring > 0 && !allQuiet ? ` (${quietFiring} acknowledged or snoozed)` : ''}</span>
      {oldest ? (
        <span className="max-sm:hidden">
          {count === 1 ? ': ' : allQuiet ? ', the oldest: ' : ', the oldest not acknowledged: '}“{oldest.ruleName}” for{' '}
          <Link href={oldest.about.href} className="underline underline-offset-2" data-testid="alert-banner-subject">
            {oldest.about.label}
          </Link>
          {quietNote ? <span data-testid="alert-banner-quiet">{quietNote}</span> : null}
        </span>
      ) : null}
      .{' '}
      <Link href={oldestFiringId ? `/alerts#alert-${oldestFiringId}` : '/alerts'} className="underline underline-offset-2">
        See {count === 1 ? 'it' : 'them'}
      </Link>
    </div>
  );
}
