import type { Metadata } from 'next';
import Link from 'next/link';
import { ErrorCallout } from '@/components/console/callout';
import { PageHeader } from '@/components/console/page-header';
import { EVENT_TYPES } from '@/lib/constants';
import { parseTimelineSearch } from '@/lib/console/timeline/timeline-filters';
import type { TTimeline } from '@/lib/console/timeline/timeline-types';
import { loadTimelineView } from '@/lib/console/timeline/timeline-view';
import { Timeline } from './timeline';
import { TimelineFilterForm } from './timeline-filter-form';
import { WebhookActions } from './webhook-controls';
import { WebhookSettingsCard } from './webhook-settings-card';
import { WebhookHealth } from './webhook-health';
import { WebhookStatus } from './webhook-status';
import { RecoverPanel } from './recover-panel';
import { OutageCard } from './outage-card';
import { ExportLinks } from '@/components/console/export-links';
import type { TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Webhook timeline' };

// When the first page cannot be read the header still renders, and polls until it can.
const UNREAD: TTimeline = { webhook: null, receiver: null, messages: [], sharedUrlWith: [], nextPageToken: null, fetchedAt: new Date(0).toISOString() };

export default async function WebhookPage({ params, searchParams }: TPageProps<{ id: string }>) {
  const { id } = await params;
  const filters = parseTimelineSearch(await searchParams);
  const { view } = await loadTimelineView(id, filters);
  const { timeline, tracked, createdFor, outage } = view;
  const initial = timeline ?? UNREAD;
  const webhook = initial.webhook;

  const description = webhook?.description || tracked?.description || '';
  const eventTypes = webhook?.eventTypes ?? [...EVENT_TYPES];
  const url = webhook?.url ?? tracked?.url ?? '';
  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={<Breadcrumb id={description ? id : undefined} />}
        title={description || `Webhook ${id}`}
        description={<WebhookStatus webhookId={id} filters={filters} initial={initial} knownUrl={url} />}
        actions={<WebhookActions webhookId={id} filters={filters} initial={initial} eventTypes={eventTypes} />}
      />

      <WebhookSettingsCard
        webhookId={id}
        webhook={webhook}
        filters={filters}
        initial={initial}
        url={url}
        eventTypes={eventTypes}
        receiver={initial.receiver}
        createdFor={createdFor}
        sharedUrlWith={initial.sharedUrlWith}
      />

      {outage ? <OutageCard webhookId={id} view={outage} /> : null}

      {/* Read once the page is up (a scan of the window's attempts); a service without the stats extension shows none. */}
      {webhook ? <WebhookHealth webhookId={id} withReceiver={Boolean(initial.receiver)} /> : null}

      <RecoverPanel webhookId={id} />

      <section className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Timeline</h2>
          <TimelineFilterForm webhookId={id} filters={filters} eventTypes={eventTypes} />
        </div>
        <ExportLinks
          testId="timeline-export"
          base={`/api/webhooks/${encodeURIComponent(id)}/export`}
          query={{ status: filters.status, eventType: filters.eventType, since: filters.after, until: filters.before }}
          formats={[
            { label: 'Export CSV', params: { format: 'csv' } },
            { label: 'Export NDJSON', params: { format: 'ndjson' } },
          ]}
        />
        {timeline ? (
          <Timeline key={JSON.stringify(filters)} webhookId={id} filters={filters} initial={timeline} />
        ) : (
          <ErrorCallout error={view.error} title="The messages could not be loaded" />
        )}
      </section>
    </div>
  );
}

function Breadcrumb({ id }: { id?: string }) {
  return (
    <span>
      <Link href="/webhooks" className="hover:underline">
        Webhooks
      </Link>
      {id ? (
        <>
          {' '}
          / <span className="break-all font-mono">{id}</span>
        </>
      ) : null}
    </span>
  );
}
