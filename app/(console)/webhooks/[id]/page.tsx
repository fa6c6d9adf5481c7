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
import { loadTimeline, type TTimelineFilters } from '@/lib/console/timeline';
import { Timeline } from './timeline';
import { WebhookActions } from './webhook-controls';

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
  const knownUrl = webhook.data?.url ?? tracked?.url ?? '';
  // The receiver it was created for, or else the one whose ingest URL it points at (tracked by id).
  const receiver = (tracked?.receiverId ? await getReceiver(tracked.receiverId) : null) ?? (knownUrl ? (receivers.find((r) => ingestUrl(r.slug) === knownUrl) ?? null) : null);
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

  const url = knownUrl;
  const description = webhook.data?.description ?? tracked?.description ?? '';
  const eventTypes = webhook.data?.eventTypes ?? [...EVENT_TYPES];
  const disabled = webhook.data?.disabled ?? false;

  // The URL shows once, in the card (with a copy button); the receiver's ingest URL only when it is not that URL.
  const receiverUrl = receiver ? ingestUrl(receiver.slug) : '';
  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={<Breadcrumb id={description ? id : undefined} />}
        title={description || `Webhook ${id}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {webhook.data ? <EnabledBadge disabled={disabled} /> : null}
            {receiver ? (
              <span>
                delivers to receiver{' '}
                <Link href={`/receivers/${receiver.id}`} className="font-medium text-indigo-700 hover:underline">
                  {receiver.name}
                </Link>
              </span>
            ) : url ? (
              <span>delivers outside this console</span>
            ) : null}
          </span>
        }
        actions={<WebhookActions webhookId={id} eventTypes={eventTypes} disabled={disabled} canToggle={webhookExt === 'ok'} />}
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
                  {receiverUrl !== url ? (
                    <span className="text-xs text-amber-800">
                      its ingest URL is <code className="break-all font-mono">{receiverUrl}</code>, not this webhook&apos;s URL
                    </span>
                  ) : null}
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
