'use client';

import { useState, type ReactNode } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import { ChartPlaceholder, LatencyChart, OutcomeChart } from '@/components/console/health/delivery-charts';
import { ago, formatAge, formatMs, formatRate } from '@/components/console/health/format-health';
import { HealthBadge } from '@/components/console/health/health-badge';
import { HealthLiveStatus } from '@/components/console/health/health-live-status';
import { WindowSwitcher } from '@/components/console/health/window-switcher';
import { Timestamp } from '@/components/console/timestamp';
import { effectiveSuccessRate } from '@/lib/console/health/classify-health';
import { lastSuccessFigure } from '@/lib/console/health/last-success';
import type { THealthWindow } from '@/lib/console/health/health-types';
import { useWebhookStats, type TStatsAnswer } from './use-webhook-stats';
import { plural, withReadableTimes } from '@/lib/console/format';

/**
 * The webhook's health: figures over a window (switchable), outcome and latency charts, live. Read
 * after the page has rendered: the stats scan every attempt of the window (a busy webhook's 24 h
 * can be 100k rows), and the timeline should not wait for them. A service without the stats
 * extension (404) shows no card.
 */
const PENDING_FIGURES = ['Success rate', 'Response time', 'Backlog', 'Last success', 'Failure streak', 'Disabled'];

export function WebhookHealth({ webhookId, withReceiver }: { webhookId: string; withReceiver: boolean }) {
  const [win, setWin] = useState<THealthWindow>('24h');
  const query = useWebhookStats(webhookId, win);
  const answer: TStatsAnswer | undefined = query.data;
  if (!answer) {
    if (query.error?.status === 404) return null;
    // The loaded section's shape, empty: the timeline below does not move when the figures arrive.
    return (
      <section className="space-y-3" aria-label="Health" aria-busy={query.isFetching} data-testid="webhook-health-pending">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Health</h2>
          <WindowSwitcher value={win} onChange={setWin} />
        </div>
        <HealthLiveStatus fetching={query.isFetching} updatedAt={query.dataUpdatedAt} error={query.error} />
        <dl className={`grid grid-cols-2 gap-2 sm:grid-cols-3 ${withReceiver ? 'lg:grid-cols-7' : 'lg:grid-cols-6'}`} aria-hidden="true">
          {(withReceiver ? [...PENDING_FIGURES, 'Failed at receiver'] : PENDING_FIGURES).map((label) => (
            <Figure key={label} label={label} value="…" sub={'\u00a0'} />
          ))}
        </dl>
        <div className="grid gap-4 rounded-lg border border-slate-200 bg-surface p-3 lg:grid-cols-2" aria-hidden="true">
          <ChartPlaceholder />
          <ChartPlaceholder longCaption />
        </div>
      </section>
    );
  }
  const { stats, health, receiver } = answer;
  const rate = effectiveSuccessRate(stats, receiver);
  const last = lastSuccessFigure(stats.lastSuccessAt, rate, receiver?.unverifiedAccepted);
  const now = stats.until;
  const b = stats.backlog;
  return (
    <section className="space-y-3" aria-label="Health" data-testid="webhook-health">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold text-slate-900">Health</h2>
          <HealthBadge health={health} />
          {health.level !== 'healthy' ? <span className="text-xs text-slate-600">{health.reasons.join(' · ')}</span> : null}
        </div>
        <WindowSwitcher value={win} onChange={setWin} />
      </div>
      <HealthLiveStatus fetching={query.isFetching} updatedAt={query.dataUpdatedAt} error={query.error} />
      {query.error?.status === 400 ? <ErrorCallout error={query.error.info()} /> : null}
      <dl className={`grid grid-cols-2 gap-2 sm:grid-cols-3 ${receiver ? 'lg:grid-cols-7' : 'lg:grid-cols-6'}`} data-testid="health-figures">
        <Figure
          label={`Success rate (${stats.window})`}
          value={formatRate(rate)}
          sub={
            receiver?.unverifiedAccepted
              ? `${Math.max(0, stats.successes - receiver.unverifiedAccepted)} of ${stats.attempts} verified`
              : `${stats.successes} of ${stats.attempts} attempts`
          }
        />
        {receiver ? (
          <Figure
            label={`Failed at receiver (${stats.window})`}
            value={plural(receiver.failures, 'arrival')}
            sub={receiver.failures ? `last ${ago(receiver.lastFailureAt, stats.until)}` : 'bad signature or error answer'}
          />
        ) : null}
        <Figure
          label="Response time"
          value={`p95 ${formatMs(stats.responseTimeMs.p95)}`}
          sub={`p50 ${formatMs(stats.responseTimeMs.p50)} · p99 ${formatMs(stats.responseTimeMs.p99)}`}
        />
        <Figure
          label="Backlog"
          value={`${b.pending + b.sending} waiting`}
          sub={
            b.oldestPendingAt
              ? `oldest ${formatAge(b.oldestPendingAgeSeconds)}${stats.disabled ? ' · not attempted while disabled' : b.nextAttemptAt ? ` · next in ${ago(now, b.nextAttemptAt).replace(' ago', '')}` : ''}`
              : 'nothing waiting'
          }
        />
        <Figure
          label={last.label}
          value={last.note ? 'none verified' : ago(last.at, now)}
          sub={last.note ?? (last.at ? <Timestamp value={last.at} /> : 'no success recorded')}
        />
        <Figure label="Failure streak" value={String(stats.failureStreak)} sub={<StreakNote stats={stats} />} />
        <Figure
          label="Disabled"
          value={stats.disabled ? 'yes' : 'no'}
          sub={
            stats.disabled ? (
              <>
                {stats.disabledReason ? withReadableTimes(stats.disabledReason) : 'no reason given'}
                {stats.disabledAt ? (
                  <>
                    {' '}
                    · at <Timestamp value={stats.disabledAt} /> UTC
                  </>
                ) : null}
              </>
            ) : (
              'enabled'
            )
          }
        />
      </dl>
      <div className="grid gap-4 rounded-lg border border-slate-200 bg-surface p-3 lg:grid-cols-2">
        <OutcomeChart stats={stats} />
        <LatencyChart stats={stats} />
      </div>
    </section>
  );
}

/**
 * Under the failure streak: since when the service counts the webhook failing. Enabling a webhook
 * starts its failing stretch afresh (failingSince null) while its newest attempts still failed: until
 * one succeeds that is "no success since …", never "not failing" beside a Failing badge.
 */
function StreakNote({ stats }: { stats: TStatsAnswer['stats'] }) {
  if (stats.failingSince)
    return (
      <>
        failing since <Timestamp value={stats.failingSince} />
      </>
    );
  if (stats.failureStreak === 0) return <>not failing</>;
  return stats.lastSuccessAt ? (
    <>
      no success since <Timestamp value={stats.lastSuccessAt} />
    </>
  ) : (
    <>no success yet</>
  );
}

function Figure({ label, value, sub }: { label: string; value: string; sub: ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-surface px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="truncate text-base font-semibold tabular-nums text-slate-900">{value}</dd>
      <dd className="truncate text-xs text-slate-500">{sub}</dd>
    </div>
  );
}
