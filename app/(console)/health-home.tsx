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
import { Table, TBody, Td, Th } from '@/components/console/table';
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
          {data.rows.length} webhook{data.rows.length === 1 ? '' : 's'}, {attention} need{attention === 1 ? 's' : ''} attention
          {byLevel.length ? <span className="text-slate-500"> ({byLevel.map(([level, n]) => `${n} ${level}`).join(', ')})</span> : null} · figures over the last {data.window}
        </p>
        <WindowSwitcher value={win} onChange={choose} />
      </div>
      <HealthLiveStatus fetching={query.isFetching} updatedAt={query.dataUpdatedAt} error={query.error} />
      <HealthWarnings data={data} />
      {!data.statsSupported ? (
        <Callout tone="warning" title="The service offers no stats">
          It answered 404/405 for <code className="font-mono">GET /v1/webhooks/&#123;id&#125;/stats</code> (an extension, see docs/api-extensions.md): only whether each webhook is disabled is shown.
        </Callout>
      ) : null}
      {!data.listed ? <Callout>The service does not list webhooks: these are the ones this console tracks.</Callout> : null}
      {data.rows.length === 0 ? (
        <EmptyState title="No webhooks yet">
          Create a subscription under <Link href="/webhooks/new" className="font-medium text-indigo-700 hover:underline">Webhooks → New subscription</Link>.
        </EmptyState>
      ) : (
        <>
          <div className="hidden md:block">
            <Table label="Webhooks by health">
              <thead>
                <tr>
                  <Th>Health</Th>
                  <Th>Webhook</Th>
                  <Th>Success rate</Th>
                  <Th className="text-right">Attempts</Th>
                  <Th className="text-right">p95</Th>
                  <Th className="text-right">Backlog</Th>
                  <Th>Last success</Th>
                </tr>
              </thead>
              <TBody>
                {data.rows.map((row) => (
                  <HealthTableRow key={row.webhook.id} row={row} now={data.fetchedAt} />
                ))}
              </TBody>
            </Table>
          </div>
          <ul className="space-y-2 md:hidden" aria-label="Webhooks by health">
            {data.rows.map((row) => (
              <HealthCard key={row.webhook.id} row={row} now={data.fetchedAt} />
            ))}
          </ul>
        </>
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

function Reasons({ row }: { row: THealthRow }) {
  if (row.health.level === 'healthy') return null;
  return <div className="mt-0.5 text-xs text-slate-500">{row.error && !row.stats ? row.error : row.health.reasons.join(' · ')}</div>;
}

/** The window's success rate counting the receiver's failed arrivals; the service's own rate in the tooltip when they differ. */
function Rate({ row, className = '' }: { row: THealthRow; className?: string }) {
  const service = row.stats?.successRate ?? null;
  const rate = row.stats ? effectiveSuccessRate(row.stats, row.receiver) : null;
  const differs = rate !== service;
  return (
    <span className={`tabular-nums ${className}`} data-testid="success-rate" title={differs ? `${formatRate(service)} by the service's count; ${row.receiver?.unverifiedAccepted} answered 2xx but not verified at receiver “${row.receiver?.receiver.name}”` : undefined}>
      {formatRate(rate)}
      {differs ? <span className="text-rose-700">*</span> : null}
    </span>
  );
}

function Backlog({ row }: { row: THealthRow }) {
  const b = row.stats?.backlog;
  if (!b) return <span className="text-slate-400">—</span>;
  const n = b.pending + b.sending;
  return (
    <span className="tabular-nums" title={b.oldestPendingAt ? `oldest waiting ${formatAge(b.oldestPendingAgeSeconds)}` : undefined}>
      {n}
      {n ? <span className="text-xs text-slate-500"> · oldest {formatAge(b.oldestPendingAgeSeconds)}</span> : null}
    </span>
  );
}

function HealthTableRow({ row, now }: { row: THealthRow; now: string }) {
  const s = row.stats;
  return (
    <tr className="hover:bg-slate-50" data-testid="health-row" data-webhook-id={row.webhook.id} data-level={row.health.level}>
      <Td>
        <HealthBadge health={row.health} />
      </Td>
      <Td className="max-w-xs">
        <WebhookLink row={row} />
        <Reasons row={row} />
      </Td>
      <Td>
        <div className="flex items-center gap-2">
          <Rate row={row} className="w-14" />
          {s ? <SuccessSparkline stats={s} /> : null}
        </div>
      </Td>
      <Td className="text-right tabular-nums">{s ? `${s.attempts}` : '—'}</Td>
      <Td className="text-right tabular-nums">{formatMs(s?.responseTimeMs.p95 ?? null)}</Td>
      <Td className="text-right">
        <Backlog row={row} />
      </Td>
      <Td className="whitespace-nowrap text-xs">{s ? ago(s.lastSuccessAt, now) : '—'}</Td>
    </tr>
  );
}

function HealthCard({ row, now }: { row: THealthRow; now: string }) {
  const s = row.stats;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3" data-testid="health-card" data-level={row.health.level}>
      <div className="flex items-start justify-between gap-2">
        <WebhookLink row={row} />
        <HealthBadge health={row.health} />
      </div>
      <Reasons row={row} />
      <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-500">Success rate</dt>
        <dd className="flex items-center gap-2 tabular-nums">
          <Rate row={row} />
          {s ? <SuccessSparkline stats={s} /> : null}
        </dd>
        <dt className="text-slate-500">p95</dt>
        <dd className="tabular-nums">{formatMs(s?.responseTimeMs.p95 ?? null)}</dd>
        <dt className="text-slate-500">Backlog</dt>
        <dd>
          <Backlog row={row} />
        </dd>
        <dt className="text-slate-500">Last success</dt>
        <dd>{s ? ago(s.lastSuccessAt, now) : '—'}</dd>
      </dl>
    </li>
  );
}
