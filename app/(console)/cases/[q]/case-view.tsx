'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { Badge, MessageStatusBadge, ReconciliationBadge } from '@/components/console/badge';
import { Callout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { Card, DescriptionList } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { ExportLinks } from '@/components/console/export-links';
import { Timestamp } from '@/components/console/timestamp';
import type { TCase, TCaseGrant, TCaseMessage } from '@/lib/console/investigation/case-types';
import { CaseDelivery, ForwardLine, ReceiptLine } from './case-delivery';
import { formatMoney } from '@/lib/money';
import { plural } from '@/lib/console/format';

// A case, kept live: the same search re-run every few seconds, so a retry or a fix shows without a reload.

const POLL_MS = 3000;
const KIND_LABELS: Record<TCase['kind'], string> = {
  'message-id': 'message id',
  'event-id': 'event id',
  'grant-id': 'grant id',
  'tracking-id': 'tracking id',
  email: 'donor e-mail',
  'donor-name': 'donor name',
  'webhook-id': 'webhook id',
  unknown: 'text',
};

async function fetchCase(q: string): Promise<TCase> {
  const res = await fetch(`/api/search?q=${encodeURIComponent(q)}`, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

export function CaseView({ initial }: { initial: TCase }) {
  const { data, error } = useQuery({
    queryKey: ['case', initial.query],
    queryFn: () => fetchCase(initial.query),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.fetchedAt),
    refetchInterval: POLL_MS,
    retry: false,
  });
  return (
    <div className="space-y-5" data-testid="case" data-kind={data.kind}>
      <PageHeader
        eyebrow={<span>Case · {KIND_LABELS[data.kind]}</span>}
        title={<span className="break-all font-mono">{data.query}</span>}
        description={
          <span className="text-xs text-slate-500">
            {error ? `Live updates paused (${(error as Error).message}).` : 'Live: re-checked every few seconds.'} Every webhook of the account, what the API
            sent and what this console&apos;s receivers got. Times are UTC.
          </span>
        }
        actions={
          <ExportLinks testId="case-export" base={`/api/cases/${encodeURIComponent(data.query)}/export`} formats={[{ label: 'Download evidence (JSON)' }]} />
        }
      />
      {data.notes.map((n) => (
        <Callout key={n} tone="info">
          {n}
        </Callout>
      ))}
      {data.grants.map((g) => (
        <GrantCard key={g.id} grant={g} />
      ))}
      {data.messages.length === 0 ? (
        <EmptyState title="No message found">Nothing the API or this console&apos;s receivers hold matches this search.</EmptyState>
      ) : null}
      {data.messages.map((m) => (
        <MessageSection key={m.id} message={m} />
      ))}
    </div>
  );
}

function GrantCard({ grant: g }: { grant: TCaseGrant }) {
  return (
    <Card title={`Grant ${g.trackingId}`}>
      <div data-testid="case-grant" data-grant-id={g.id}>
        <DescriptionList
          items={[
            [
              'Tracking id',
              <Link
                key="t"
                href={`/cases/${encodeURIComponent(g.trackingId)}`}
                className="font-mono text-indigo-700 hover:underline"
                data-testid="case-tracking-id"
              >
                {g.trackingId}
              </Link>,
            ],
            ['Amount', `${formatMoney(g.amount)} (fee ${formatMoney(g.feeAmount)})`],
            [
              'Donor',
              g.erasedAt ? (
                <span key="d" className="text-slate-500" data-testid="case-grant-erased">
                  erased on {g.erasedAt.slice(0, 10)} (donor erasure)
                </span>
              ) : (
                `${g.firstName} ${g.lastName} · ${g.email}`
              ),
            ],
            ['Fund', g.fundName],
            [
              'Status',
              <span key="s" className="space-y-1">
                <Badge tone={g.status === 'Canceled' ? 'red' : g.status === 'Completed' ? 'green' : 'blue'}>{g.status}</Badge>
                <span className="block text-xs text-slate-600" data-testid="grant-status-note">
                  {g.statusNote}
                </span>
              </span>,
            ],
            ['Grant id', <CopyField key="id" value={g.id} />],
            [
              'Connect',
              <Link key="c" href={`/connects/${encodeURIComponent(g.connectId)}/grants`} className="break-all font-mono text-indigo-700 hover:underline">
                {g.connectId}
              </Link>,
            ],
            ['Created', <Timestamp key="cr" value={g.createdAt} zone />],
            ...(g.source === 'payload'
              ? ([['Note', 'As the message carried it; the service did not answer for the grant itself.']] as [string, string][])
              : []),
          ]}
        />
      </div>
    </Card>
  );
}

function MessageSection({ message: m }: { message: TCaseMessage }) {
  const sent = m.deliveries.filter((d) => d.status !== null).length;
  return (
    <section className="space-y-3" data-testid="case-message" data-message-id={m.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold text-slate-900">{m.eventType}</h2>
        {m.test ? <Badge tone="violet">test event</Badge> : null}
        <code className="break-all font-mono text-xs text-slate-600">{m.id}</code>
        {m.eventId ? <code className="break-all font-mono text-xs text-slate-600">{m.eventId}</code> : null}
        <Timestamp value={m.timestamp} withMs zone />
        <span className="text-xs text-slate-500">
          queued for {sent} of {plural(m.deliveries.length, 'webhook')}
        </span>
      </div>
      {m.payloadGone ? (
        <p className="text-xs text-slate-600" data-testid="payload-gone">
          {m.payloadGone.note}
        </p>
      ) : null}
      {m.deliveries.length === 0 ? <EmptyState title="This account has no webhooks">Nothing could have been sent.</EmptyState> : null}
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        {m.deliveries.map((d) => (
          <CaseDelivery key={d.webhook.id} messageId={m.id} delivery={d} />
        ))}
      </div>
      {m.forwards.length ? (
        <Card title={`Forwarded by staff (${m.forwards.length})`}>
          <ul className="space-y-1">
            {m.forwards.map((f) => (
              <ForwardLine key={f.id} forward={f} />
            ))}
          </ul>
        </Card>
      ) : null}
      {m.otherReceipts.length ? (
        <Card title="Also arrived at receivers no webhook of this account points to">
          <ul className="space-y-1">
            {m.otherReceipts.map((r) => (
              <ReceiptLine key={r.id} receipt={r} />
            ))}
          </ul>
        </Card>
      ) : null}
    </section>
  );
}

export { MessageStatusBadge, ReconciliationBadge };
