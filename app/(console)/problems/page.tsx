import { Pager } from '@/components/console/pager';
import type { Metadata } from 'next';
import Link from 'next/link';
import { EnabledBadge, MessageStatusBadge, ReconciliationBadge, SuspiciousBadge } from '@/components/console/badge';
import { isDeliveryProblem } from '@/lib/console/timeline/reconcile';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import type { TProblemGroup, TProblemItem } from '@/lib/console/investigation/find-problems';
import type { TProblemPreset } from '@/lib/console/investigation/problem-window';
import { loadProblemsView } from '@/lib/console/investigation/problems-view';
import type { TPageProps } from '@/lib/http/page-props';
import { QueryError } from '@/components/console/query-error';
import { Button } from '@/components/console/form';
import { formatMoney } from '@/lib/money';
import { withReadableTimes } from '@/lib/console/format';
import { UtcTimeField } from '@/components/console/utc-time-field';

export const metadata: Metadata = { title: 'Problems' };

const PRESETS: [TProblemPreset, string][] = [
  ['1h', 'Last hour'],
  ['24h', 'Last 24 h'],
  ['7d', 'Last 7 days'],
];

export default async function ProblemsPage({ searchParams }: TPageProps) {
  const page = await loadProblemsView(await searchParams);
  if (page.queryError !== null)
    return (
      <QueryError title="Problems" heading="This date range cannot be read" message={page.queryError} back={{ href: '/problems', label: 'Last 7 days' }} />
    );
  const { view } = page;
  const { data, older } = view;
  const groups = new Map((data?.groups ?? []).map((g) => [g.webhook.id, g]));
  return (
    <div className="space-y-5">
      <PageHeader
        title="Problems"
        description="Every message, on any webhook, that failed, is still retrying, was sent but not received, arrived with a bad signature or was answered with an error. Healthy webhooks are not listed."
      />
      <form action="/problems" method="get" className="flex flex-wrap items-end gap-2 text-sm">
        <UtcTimeField label="From (UTC)" name="since" value={view.since} />
        <UtcTimeField label="To (UTC)" name="until" value={view.until} />
        <Button type="submit">Show</Button>
        <nav aria-label="Presets" className="flex items-center gap-1 text-xs" data-testid="problem-presets">
          {PRESETS.map(([last, label]) => (
            <Link
              key={last}
              href={`/problems?last=${last}`}
              aria-current={view.preset === last ? 'page' : undefined}
              className="rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 aria-[current=page]:bg-slate-200 aria-[current=page]:font-medium aria-[current=page]:text-slate-900"
            >
              {label}
            </Link>
          ))}
        </nav>
      </form>
      {view.error ? <ErrorCallout error={view.error} title="The problems could not be loaded" /> : null}
      {data?.notes.map((n) => (
        <Callout key={n}>{n}</Callout>
      ))}
      {data?.aboutToDisable?.length ? (
        <Callout tone="error" title="About to be disabled">
          <ul className="space-y-1" data-testid="about-to-disable">
            {data.aboutToDisable.map((a) => (
              <li key={a.webhookId}>
                <Link href={`/webhooks/${encodeURIComponent(a.webhookId)}`} className="font-medium underline">
                  {a.name}
                </Link>
                : {a.sentence}.
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {data?.paused?.length ? (
        <Callout title="Paused: waiting, not failing">
          <ul className="space-y-1" data-testid="paused-webhooks">
            {data.paused.map((p) => (
              <li key={p.webhookId}>
                <Link href={`/webhooks/${encodeURIComponent(p.webhookId)}`} className="font-medium underline">
                  {p.name}
                </Link>
                : {p.sentence}.
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {data && data.groups.length === 0 ? (
        <EmptyState title="No problems in this range">Every message on every webhook was delivered and received, or is on its first try.</EmptyState>
      ) : null}
      {data && data.groups.length > 0 ? (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {data.groups.map((g) => (
            <GroupCard key={g.webhook.id} group={g} />
          ))}
        </div>
      ) : null}
      {data && data.items.length > 0 ? (
        <section className="space-y-2">
          <h2 className="text-base font-semibold text-slate-900">Messages</h2>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-surface">
            {data.items.map((item) => (
              <ProblemRow key={`${item.webhookId}|${item.id}`} item={item} group={groups.get(item.webhookId)} />
            ))}
          </ul>
          <Pager older={older} testId="older-problems" />
        </section>
      ) : null}
    </div>
  );
}

function GroupCard({ group: g }: { group: TProblemGroup }) {
  return (
    <article className="min-w-0 rounded-lg border border-slate-200 bg-surface p-4" data-testid="problem-group" data-webhook-id={g.webhook.id}>
      <div className="flex items-center gap-2">
        <Link href={`/webhooks/${encodeURIComponent(g.webhook.id)}`} className="min-w-0 truncate text-sm font-semibold text-indigo-700 hover:underline">
          {g.webhook.description || g.webhook.id}
        </Link>
        <EnabledBadge disabled={g.webhook.disabled} />
        <span className="ml-auto text-lg font-semibold tabular-nums text-rose-700" data-testid="problem-count">
          {g.truncated ? '≥ ' : ''}
          {g.total}
        </span>
      </div>
      <p className="mt-0.5 break-all font-mono text-xs text-slate-500">{g.webhook.url}</p>
      {g.webhook.disabled && g.webhook.disabledReason ? (
        <p className="mt-1 text-xs text-slate-600">
          Disabled
          {g.webhook.disabledAt ? (
            <>
              {' '}
              at <Timestamp value={g.webhook.disabledAt} /> UTC
            </>
          ) : null}
          : {withReadableTimes(g.webhook.disabledReason)}
        </p>
      ) : null}
      <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
        {g.counts.map((c) => (
          <li key={c.key} data-testid="problem-kind" data-kind={c.key}>
            <span className="font-semibold tabular-nums">
              {c.capped ? '≥ ' : ''}
              {c.count}
            </span>{' '}
            {c.label}
          </li>
        ))}
      </ul>
    </article>
  );
}

function ProblemRow({ item, group }: { item: TProblemItem; group?: TProblemGroup }) {
  // Delivered and verified, with a copy that did not verify beside it: its own kind (no resend).
  const suspicious = !isDeliveryProblem(item);
  return (
    <li
      className="flex flex-col gap-1 px-4 py-2.5 text-sm sm:flex-row sm:items-center sm:gap-3"
      data-testid="problem-item"
      data-message-id={item.id}
      data-webhook-id={item.webhookId}
      data-reconciliation={item.reconciliation}
      data-kind={suspicious ? 'suspicious-arrival' : item.reconciliation}
    >
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <Timestamp value={item.timestamp} />
        {suspicious ? <SuspiciousBadge /> : <ReconciliationBadge value={item.reconciliation} />}
        <MessageStatusBadge status={item.status} />
      </div>
      <div className="min-w-0 flex-1">
        <p className="text-slate-800" data-testid="explanation">
          {item.explanation}
        </p>
        {item.grant ? (
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-700" data-testid="problem-grant">
            {item.grant.trackingId ? (
              // 24 px tall at least: a flex item, not a link inside a sentence, so WCAG 2.5.8 (target size) applies.
              <Link
                href={`/cases/${encodeURIComponent(item.grant.trackingId)}`}
                className="inline-flex min-h-6 items-center font-mono text-indigo-700 hover:underline"
                data-testid="problem-tracking-id"
              >
                {item.grant.trackingId}
              </Link>
            ) : null}
            {item.grant.donor ? <span data-testid="problem-donor">{item.grant.donor}</span> : null}
            {item.grant.amount !== null ? (
              <span className="tabular-nums" data-testid="problem-amount">
                {formatMoney(item.grant.amount)}
              </span>
            ) : null}
          </p>
        ) : null}
        <p className="truncate text-xs text-slate-500">
          <Link href={`/cases/${encodeURIComponent(item.id)}`} className="font-mono text-indigo-700 hover:underline">
            {item.id}
          </Link>{' '}
          on {group?.webhook.description || group?.webhook.url || item.webhookId}
        </p>
      </div>
    </li>
  );
}
