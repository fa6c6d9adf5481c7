import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/console/badge';
import { CopyField } from '@/components/console/copy-button';
import { Card, DescriptionList } from '@/components/console/card';
import { Timestamp } from '@/components/console/timestamp';
import type { TReceiverRef, TTimeline, TTimelineFilters, TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import { RateCapSetting } from './rate-cap-setting';

// The webhook's settings as of the page load: id, URL (shown once, with a copy button), event
// types, the receiver its URL reaches; its rate cap (operators set it here) as the page polls it, beside its
// live state (enabled, disabled reason) in the header.

export function WebhookSettingsCard({
  webhookId,
  webhook,
  filters,
  initial,
  url,
  eventTypes,
  receiver,
  createdFor,
  sharedUrlWith = [],
}: {
  webhookId: string;
  webhook: TTimelineWebhook | null;
  /** The page's timeline query (its filters and first page): the rate cap row reads the webhook it polls. */
  filters: TTimelineFilters;
  initial: TTimeline;
  url: string;
  eventTypes: string[];
  receiver: TReceiverRef | null;
  /** The receiver the webhook was created for, when its URL no longer reaches it. */
  createdFor: TReceiverRef | null;
  /** Other webhooks with exactly this URL: the receiver cannot tell their arrivals apart. */
  sharedUrlWith?: { id: string; description: string }[];
}) {
  const items: [string, ReactNode][] = [
    ['Webhook id', <CopyField key="id" value={webhookId} />],
    ['URL', url ? <CopyField key="url" value={url} /> : <span className="text-slate-500">unknown (this service cannot show webhook settings)</span>],
    [
      'Event types',
      <span key="et" className="inline-flex flex-wrap gap-1">
        {eventTypes.map((t) => (
          <Badge key={t} tone="blue">
            {t}
          </Badge>
        ))}
      </span>,
    ],
    ['Receiver', <ReceiverValue key="rc" receiver={receiver} createdFor={createdFor} />],
  ];
  if (sharedUrlWith.length) {
    items.push([
      'Same URL as',
      <span key="shared" className="text-amber-800" data-testid="shared-url">
        {sharedUrlWith.map((w, i) => (
          <span key={w.id}>
            {i > 0 ? ', ' : ''}
            <Link href={`/webhooks/${w.id}`} className="font-medium text-indigo-700 hover:underline">
              {w.description || w.id}
            </Link>
          </span>
        ))}{' '}
        — the receiver cannot tell these webhooks’ arrivals apart, so each timeline shows them all
      </span>,
    ]);
  }
  if (webhook) items.push(['Rate cap', <RateCapSetting key="cap" webhookId={webhookId} filters={filters} initial={initial} />]);
  if (webhook) items.push(['Created', <Timestamp key="c" value={webhook.createdAt} />]);
  else
    items.push([
      'Note',
      <span key="n" className="text-slate-500">
        This service does not show webhook settings (EXT): enable/disable is hidden.
      </span>,
    ]);
  return (
    <Card>
      <DescriptionList items={items} />
    </Card>
  );
}

function ReceiverValue({ receiver, createdFor }: { receiver: TReceiverRef | null; createdFor: TReceiverRef | null }) {
  if (receiver) {
    return (
      <Link href={`/receivers/${receiver.id}`} className="font-medium text-indigo-700 hover:underline">
        {receiver.name}
      </Link>
    );
  }
  if (createdFor) {
    return (
      <span className="text-amber-800">
        created for{' '}
        <Link href={`/receivers/${createdFor.id}`} className="font-medium text-indigo-700 hover:underline">
          {createdFor.name}
        </Link>
        , but its URL no longer reaches it — new requests are not received by this console
      </span>
    );
  }
  return <span className="text-slate-500">none of this console — receipts appear only for requests that reach one of its receivers</span>;
}
