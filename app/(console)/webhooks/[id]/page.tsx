import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { getTrackedWebhook } from '@/lib/console/tracked-webhooks';
import { getReceiver, ingestUrl, listReceivers } from '@/lib/console/receivers';
import { EVENT_TYPES, MESSAGE_STATUSES } from '@/lib/constants';
import { Badge, EnabledBadge } from '@/components/console/badge';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { Card, DescriptionList, PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { attempt } from '@/app/(console)/_lib/errors';
import { loadTimeline, type TTimelineFilters } from '@/app/(console)/_lib/timeline';
import { Timeline } from './timeline';
import { SendTestEvent, WebhookToggle } from './webhook-controls';

export const metadata: Metadata = { title: 'Webhook timeline' };

type TSearch = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function WebhookPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<TSearch> }) {
  const { staff, api } = await staffApi();
  const { id } = await params;
  const sp = await searchParams;
  const status = one(sp.status);
  const filters: TTimelineFilters = {
    status: status && (MESSAGE_STATUSES as readonly string[]).includes(status) ? status : undefined,
    eventType: one(sp.eventType)?.slice(0, 100),
    pageToken: one(sp.pageToken),
  };

  const [webhook, tracked, timeline, receivers] = await Promise.all([
    attempt(() => api.getWebhook(id)),
    getTrackedWebhook(staff.environment, id),
    attempt(() => loadTimeline(staff.environment, api, id, filters)),
    listReceivers(),
  ]);
  // getWebhook is an extension: a 404/405 while the messages load means "not supported here", not "unknown webhook".
  const webhookExt = webhook.data ? 'ok' : webhook.unsupported && timeline.data ? 'unsupported' : 'error';
  const receiver = tracked?.receiverId ? await getReceiver(tracked.receiverId) : null;
  const receiverNames = Object.fromEntries(receivers.map((r) => [r.id, r.name]));

  if (!webhook.data && !timeline.data && timeline.error?.status === 404) {
    return (
      <div className="space-y-4">
        <PageHeader eyebrow={<Breadcrumb id={id} />} title="Webhook not found" />
        <Callout tone="warning" title={`The ${staff.environment} API has no webhook ${id} for this account`}>
          Check the id and the environment (top right). Webhooks of other accounts are invisible to this console&apos;s credentials.{' '}
          <Link className="font-medium underline" href="/webhooks">
            Back to webhooks
          </Link>
        </Callout>
        {timeline.error.requestId ? <p className="text-xs text-slate-500">Request id {timeline.error.requestId}</p> : null}
      </div>
    );
  }

  const url = webhook.data?.url ?? tracked?.url ?? '';
  const description = webhook.data?.description ?? tracked?.description ?? '';
  const eventTypes = webhook.data?.eventTypes ?? [...EVENT_TYPES];
  const disabled = webhook.data?.disabled ?? false;

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={<Breadcrumb id={id} />}
        title={description || url || id}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {webhook.data ? <EnabledBadge disabled={disabled} /> : null}
            <code className="font-mono text-xs">{url}</code>
          </span>
        }
        actions={
          <>
            {webhookExt === 'ok' ? <WebhookToggle webhookId={id} disabled={disabled} /> : null}
            <SendTestEvent webhookId={id} eventTypes={eventTypes} disabled={disabled} />
          </>
        }
      />

      {webhookExt === 'error' && webhook.error ? <ErrorCallout error={webhook.error} title="The webhook's settings could not be loaded" /> : null}

      <Card>
        <DescriptionList
          items={[
            ['Webhook id', <CopyField key="id" value={id} />],
            ['URL', url ? <CopyField key="url" value={url} /> : <span className="text-slate-400">unknown (this service cannot show webhook settings)</span>],
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
            [
              'Receiver',
              receiver ? (
                <span key="rc" className="inline-flex flex-wrap items-center gap-2">
                  <Link href={`/receivers/${receiver.id}`} className="font-medium text-indigo-700 hover:underline">
                    {receiver.name}
                  </Link>
                  <code className="font-mono text-xs text-slate-500">{ingestUrl(receiver.slug)}</code>
                </span>
              ) : (
                <span key="rc" className="text-slate-500">
                  none of this console — receipts appear only for requests that reach one of its receivers
                </span>
              ),
            ],
            ...(webhook.data ? ([['Created', <Timestamp key="c" value={webhook.data.createdAt} />]] as [string, React.ReactNode][]) : []),
            ...(webhookExt === 'unsupported'
              ? ([['Note', <span key="n" className="text-slate-500">This service does not offer webhook settings (EXT); enable/disable is hidden.</span>]] as [string, React.ReactNode][])
              : []),
          ]}
        />
      </Card>

      <section className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Timeline</h2>
          <Form action="" className="flex flex-wrap items-end gap-2 text-sm">
            <label className="flex flex-col text-xs text-slate-600">
              Status
              <select name="status" defaultValue={filters.status ?? ''} className="mt-0.5 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm">
                <option value="">any</option>
                {MESSAGE_STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col text-xs text-slate-600">
              Event type
              <select name="eventType" defaultValue={filters.eventType ?? ''} className="mt-0.5 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm">
                <option value="">any</option>
                {eventTypes.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50">
              Filter
            </button>
            {filters.status || filters.eventType ? (
              <Link href={`/webhooks/${encodeURIComponent(id)}`} className="px-1 py-1 text-xs text-slate-600 hover:underline">
                Clear
              </Link>
            ) : null}
          </Form>
        </div>
        {timeline.data ? (
          <Timeline
            key={`${filters.status}|${filters.eventType}|${filters.pageToken}`}
            webhookId={id}
            filters={filters}
            initial={timeline.data}
            receiverNames={receiverNames}
            canResend={webhookExt !== 'unsupported'}
          />
        ) : (
          <ErrorCallout error={timeline.error!} title="The messages could not be loaded" />
        )}
      </section>
    </div>
  );
}

function Breadcrumb({ id }: { id: string }) {
  return (
    <span>
      <Link href="/webhooks" className="hover:underline">
        Webhooks
      </Link>{' '}
      / <span className="font-mono">{id}</span>
    </span>
  );
}
