import type { Metadata } from 'next';
import { payloadGone } from '@/lib/console/retention/body-gone';
import Link from 'next/link';
import { MessageStatusBadge, ReconciliationBadge } from '@/components/console/badge';
import { ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { DeliveryEvents } from '@/components/console/delivery-events';
import { EmptyState } from '@/components/console/empty-state';
import { BodyViewer } from '@/components/console/body-viewer/body-viewer';
import { Card, DescriptionList } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { RelativeTime } from '@/components/console/relative-time';
import { Timestamp } from '@/components/console/timestamp';
import { loadMessageView } from '@/lib/console/timeline/message-view';
import { ResendButton } from '../../resend-button';
import { CopyCurl } from '@/components/console/copy-curl';
import { ReceiptRaw } from './receipt-raw';

export const metadata: Metadata = { title: 'Message' };

export default async function MessagePage({ params }: { params: Promise<{ id: string; msgId: string }> }) {
  const { id, msgId } = await params;
  const { view } = await loadMessageView(id, msgId);

  const breadcrumb = (
    <span className="break-all">
      <Link href="/webhooks" className="hover:underline">
        Webhooks
      </Link>{' '}
      /{' '}
      <Link href={`/webhooks/${encodeURIComponent(id)}`} className="font-mono hover:underline">
        {id}
      </Link>{' '}
      / <span className="font-mono">{msgId}</span>
    </span>
  );
  if (!view.detail) {
    return (
      <div className="space-y-4">
        <PageHeader eyebrow={breadcrumb} title="Message" />
        <ErrorCallout error={view.error} title="The message could not be loaded" />
      </div>
    );
  }
  const { detail, raw, curls } = view;
  const { message: m, events, receiver, fetchedAt } = detail;
  const caseHref = `/cases/${encodeURIComponent(m.id)}`;
  const attemptExtras = Object.fromEntries(
    Object.entries(curls?.attempts ?? {}).map(([aid, c]) => [aid, <CopyCurl key={aid} testId="attempt-curl" command={c.command} utf8={c.utf8} />]),
  );

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={breadcrumb}
        title={
          <span className="inline-flex flex-wrap items-center gap-3">
            {m.eventType} <MessageStatusBadge status={m.status} />
          </span>
        }
        description={<CopyField value={m.id} />}
        actions={
          <>
            <Link href={caseHref} className="py-1 text-sm font-medium text-indigo-700 hover:underline">
              Case →
            </Link>
            <Link href={`/webhooks/${encodeURIComponent(id)}`} className="py-1 text-sm font-medium text-indigo-700 hover:underline">
              ← Timeline
            </Link>
            {payloadGone(m.payload) ? (
              // The service refuses (409) to re-send a payload an erasure or retention took.
              <span className="py-1 text-xs text-slate-500" data-testid="resend-unavailable">
                {payloadGone(m.payload)!.note}: nothing to re-send
              </span>
            ) : (
              <ResendButton webhookId={id} messageId={m.id} refresh />
            )}
          </>
        }
      />

      <section className="space-y-2 rounded-lg border border-slate-200 bg-surface p-4" aria-label="What happened">
        <div className="flex flex-wrap items-center gap-2">
          <ReconciliationBadge value={m.reconciliation} />
          {receiver ? (
            <span className="text-xs text-slate-500">
              at receiver{' '}
              <Link href={`/receivers/${receiver.id}`} className="font-medium text-indigo-700 hover:underline">
                {receiver.name}
              </Link>
            </span>
          ) : null}
        </div>
        <p className="text-sm text-slate-800" data-testid="explanation">
          {m.explanation}
        </p>
      </section>

      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card title="Message">
          <DescriptionList
            items={[
              ['Created', <Timestamp key="t" value={m.timestamp} withMs />],
              ['Status', <MessageStatusBadge key="s" status={m.status} />],
              ['Attempts', m.attemptCount],
              [
                'Next attempt',
                detail.webhookDisabled && m.nextAttempt ? (
                  <span key="n" className="text-slate-600" data-testid="next-attempt">
                    none: the webhook is disabled (the message ends failed when its retry falls due, unless the webhook is enabled first)
                  </span>
                ) : m.nextAttempt ? (
                  <span key="n" className="inline-flex flex-wrap items-center gap-2">
                    <RelativeTime value={m.nextAttempt} now={fetchedAt} /> <Timestamp value={m.nextAttempt} />
                  </span>
                ) : (
                  <Timestamp key="n" value={null} />
                ),
              ],
            ]}
          />
        </Card>
        <Card title="Payload" className="min-w-0">
          {payloadGone(m.payload) ? (
            <p className="text-xs text-slate-600" data-testid="payload-gone">
              {payloadGone(m.payload)!.note}
            </p>
          ) : (
            <BodyViewer text={JSON.stringify(m.payload ?? null)} label="Payload" />
          )}
        </Card>
      </div>

      <section className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">
          Attempts and receipts ({m.attemptCount} sent, {m.receipts.length} received)
        </h2>
        {events.length === 0 ? (
          <EmptyState title="No attempt yet, nothing received">The worker picks the message up within a second; reload in a moment.</EmptyState>
        ) : (
          <DeliveryEvents
            events={events}
            messageId={m.id}
            receiver={receiver}
            testIds={{ attempt: 'attempt-detail', receipt: 'receipt-detail' }}
            receiptExtras={Object.fromEntries(raw.map((r) => [r.id, <ReceiptRaw key={r.id} receipt={r} curl={curls?.receipts[r.id]} />]))}
            attemptExtras={attemptExtras}
          />
        )}
        {receiver === null && m.attemptCount > 0 ? (
          <p className="text-xs text-slate-500">This webhook&apos;s URL is not a receiver of this console, so what arrived cannot be shown here.</p>
        ) : null}
      </section>
    </div>
  );
}
