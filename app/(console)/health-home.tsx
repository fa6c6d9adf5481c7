'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Callout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { HealthBadge } from '@/components/console/health/health-badge';
import { HealthLiveStatus } from '@/components/console/health/health-live-status';
import { SuccessSparkline } from '@/components/console/health/success-sparkline';
import { WindowSwitcher } from '@/components/console/health/window-switcher';
import { ago, formatAge, formatMs, formatRate } from '@/components/console/health/format-health';
import { ResponsiveList, type TListColumn } from '@/components/console/responsive-list';
import { plural } from '@/lib/console/format';
import { effectiveSuccessRate, needsAttention } from '@/lib/console/health/classify-health';
import { HEALTH_LEVELS } from '@/lib/console/health/health-types';
import type { THealthHome, THealthRow, THealthWindow } from '@/lib/console/health/health-types';
import { useHealthHome } from './use-health-home';
import { HealthWarnings } from './health-warnings';

export function HealthHome({ initial }: { initial: THealthHome }) {
  const [win, setWin] = useState<THealthWindow>(initial.window);
  const query = useHealthHome(win, initial);
  const data = query.data ?? initial;
  const choose = (w: THealthWindow) => {
    setWin(w);
    history.replaceState(null, '', w === '24h' ? '/' : `/?window=${w}`);
  };
  const attention = data.rows.filter((r) => needsAttention(r.health.level)).length;
  // The summary counts the badges shown, level by level, so it cannot disagree with the list.
  const byLevel = HEALTH_LEVELS.map((level) => [level, data.rows.filter((r) => r.health.level === level).length] as const).filter(([, n]) => n > 0);

  return (
    <section className="space-y-3" aria-label="Webhook health">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700" data-testid="health-summary" data-attention={attention}>
          {plural(data.rows.length, 'webhook')}, {plural(attention, 'needs', 'need')} attention
          {byLevel.length ? <span className="text-slate-500"> ({byLevel.map(([level, n]) => `${n} ${level}`).join(', ')})</span> : null} · figures over the last{' '}
          {data.window}
        </p>
        <WindowSwitcher value={win} onChange={choose} />
      </div>
      <HealthLiveStatus fetching={query.isFetching} updatedAt={query.dataUpdatedAt} error={query.error} />
      <HealthWarnings data={data} />
      {!data.statsSupported ? (
        <Callout tone="warning" title="The service offers no stats">
          It answered 404/405 for <code className="font-mono">GET /v1/webhooks/&#123;id&#125;/stats</code> (an extension, see docs/api-extensions.md): only
          whether each webhook is disabled is shown.
        </Callout>
      ) : null}
      {!data.listed ? <Callout>The service does not list webhooks: these are the ones this console tracks.</Callout> : null}
      {data.rows.length === 0 ? (
        <EmptyState title="No webhooks yet">
          Create a subscription under{' '}
          <Link href="/webhooks/new" className="font-medium text-indigo-700 hover:underline">
            Webhooks → New subscription
          </Link>
          .
        </EmptyState>
      ) : (
        <ResponsiveList
          label="Webhooks by health"
          items={data.rows}
          itemKey={(row) => row.webhook.id}
          columns={healthColumns(data.fetchedAt)}
          cardHead={(row) => (
            <>
              <div className="flex items-start justify-between gap-2">
                <WebhookLink row={row} />
                <HealthBadge health={row.health} />
              </div>
              <Reasons row={row} />
            </>
          )}
          rowAttributes={(row) => ({ 'data-testid': 'health-row', 'data-webhook-id': row.webhook.id, 'data-level': row.health.level })}
          cardAttributes={(row) => ({ 'data-testid': 'health-card', 'data-level': row.health.level })}
        />
      )}
    </section>
  );
}

function WebhookLink({ row }: { row: THealthRow }) {
  const w = row.webhook;
  return (
    <div className="min-w-0">
      <Link href={`/webhooks/${encodeURIComponent(w.id)}`} className="block truncate font-medium text-indigo-700 hover:underline">
        {w.description || w.id}
      </Link>
      <div className="truncate font-mono text-xs text-slate-500" title={w.url}>
        {w.url}
      </div>
    </div>
  );
}

/** Why a row is not healthy; a healthy one says only its cap, if it has one (what waits at it is no trouble, but worth knowing). */
function Reasons({ row }: { row: THealthRow }) {
  if (row.health.level === 'healthy') return row.capped ? <div className="mt-0.5 text-xs text-slate-500">{row.capped}</div> : null;
  return <div className="mt-0.5 text-xs text-slate-500">{row.error && !row.stats ? row.error : row.health.reasons.join(' · ')}</div>;
}

/** The window's success rate counting the receiver's failed arrivals; the service's own rate in the tooltip when they differ. */
function Rate({ row, className = '' }: { row: THealthRow; className?: string }) {
  const service = row.stats?.successRate ?? null;
  const rate = row.stats ? effectiveSuccessRate(row.stats, row.receiver) : null;
  const differs = rate !== service;
  return (
    <span
      className={`tabular-nums ${className}`}
      data-testid="success-rate"
      title={
        differs
          ? `${formatRate(service)} by the service's count; ${row.receiver?.unverifiedAccepted} answered 2xx but not verified at receiver “${row.receiver?.receiver.name}”`
          : undefined
      }
    >
      {formatRate(rate)}
      {differs ? <span className="text-rose-700">*</span> : null}
    </span>
  );
}

function Backlog({ row }: { row: THealthRow }) {
  const b = row.stats?.backlog;
  if (!b) return <span className="text-slate-500">—</span>;
  const n = b.pending + b.sending;
  return (
    <span className="tabular-nums" title={b.oldestPendingAt ? `oldest waiting ${formatAge(b.oldestPendingAgeSeconds)}` : undefined}>
      {n}
      {n ? <span className="text-xs text-slate-500"> · oldest {formatAge(b.oldestPendingAgeSeconds)}</span> : null}
    </span>
  );
}

/** The list's columns, declared once: cells of the table, fields of the cards (badge, webhook and attempts: the table's only). */
const healthColumns = (now: string): TListColumn<THealthRow>[] => [
  { id: 'health', header: 'Health', inCard: false, cell: (row) => <HealthBadge health={row.health} /> },
  {
    id: 'webhook',
    header: 'Webhook',
    className: 'max-w-xs',
    inCard: false,
    cell: (row) => (
      <>
        <WebhookLink row={row} />
        <Reasons row={row} />
      </>
    ),
  },
  {
    id: 'rate',
    header: 'Success rate',
    cell: (row) => (
      <div className="flex items-center gap-2">
        <Rate row={row} className="w-14" />
        {row.stats ? <SuccessSparkline stats={row.stats} /> : null}
      </div>
    ),
  },
  { id: 'attempts', header: 'Attempts', className: 'text-right tabular-nums', inCard: false, cell: (row) => (row.stats ? `${row.stats.attempts}` : '—') },
  { id: 'p95', header: 'p95', className: 'text-right', cell: (row) => <span className="tabular-nums">{formatMs(row.stats?.responseTimeMs.p95 ?? null)}</span> },
  { id: 'backlog', header: 'Backlog', className: 'text-right', cell: (row) => <Backlog row={row} /> },
  { id: 'lastSuccess', header: 'Last success', className: 'whitespace-nowrap text-xs', cell: (row) => (row.stats ? ago(row.stats.lastSuccessAt, now) : '—') },
];
