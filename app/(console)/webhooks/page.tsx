import { Pager } from '@/components/console/pager';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Can } from '@/components/console/role';
import { Badge } from '@/components/console/badge';
import { ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { buttonClass } from '@/components/console/button-class';
import { PageHeader } from '@/components/console/page-header';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { loadWebhookList, ZWebhookListSearch, type TWebhookListRow } from '@/lib/console/webhooks/webhook-list';
import { plural, formatUtc } from '@/lib/console/format';
import { WebhookListFilters, webhookListHref } from './list-filters';
import { TrackWebhookForm } from './track-form';
import { WebhookHealthStatus } from './webhook-health-status';
import { trackListedWebhookAction } from './actions';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage({ searchParams }: TPageProps) {
  const search = pageQuery(await searchParams, ZWebhookListSearch);
  const {
    staff,
    view: { rows, unfiltered, trackedCount, listed, listSupported, nextPageToken },
  } = await loadWebhookList(search);
  const filtered = !!(search.tracked || search.status);

  return (
    <div className="space-y-5">
      <PageHeader
        title="Webhooks"
        description={
          <>Subscriptions of the {staff.environment} account this console signs in as. Open one to see its delivery timeline beside what actually arrived.</>
        }
        actions={
          <Can min="operator">
            <Link href="/webhooks/new" className={buttonClass('primary')}>
              New subscription
            </Link>
          </Can>
        }
      />

      <section className="space-y-3" aria-label="Webhooks">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <WebhookListFilters search={search} />
          <TrackWebhookForm />
        </div>
        {listed.error ? <ErrorCallout error={listed.error} title="The service's list of webhooks could not be loaded" /> : null}
        {!listSupported ? (
          <p className="text-sm text-slate-500">This service does not list its webhooks (an extension): the ones this console tracks are shown.</p>
        ) : null}
        {rows.length === 0 ? (
          filtered && unfiltered + trackedCount > 0 ? (
            <EmptyState
              title="No webhooks match these filters"
              action={
                <Link href="/webhooks" className={buttonClass('secondary')}>
                  Show all webhooks
                </Link>
              }
            />
          ) : search.pageToken ? (
            <EmptyState
              title="No more webhooks"
              action={
                <Link href={webhookListHref({ ...search, pageToken: undefined })} className={buttonClass('secondary')}>
                  First page
                </Link>
              }
            />
          ) : (
            <EmptyState
              title="No webhooks yet"
              action={
                <Can min="operator">
                  <Link href="/webhooks/new" className={buttonClass('primary')}>
                    Create a subscription
                  </Link>
                </Can>
              }
            >
              Create a subscription — by default it points at a new receiver of this console, so every delivery is stored and its signature checked. Or paste
              the id of an existing webhook (<code className="font-mono">ep_…</code>) into <strong>Track by id</strong>.
            </EmptyState>
          )
        ) : (
          <>
            <p className="text-xs text-slate-500" data-testid="webhook-count">
              {plural(rows.length, 'webhook')}
              {search.pageToken ? ' on this page' : ''} · {plural(trackedCount, 'webhook')} tracked by this console
            </p>
            <Table label="Webhooks" cards>
              <thead>
                <tr>
                  <Th>Webhook</Th>
                  <Th>URL</Th>
                  <Th>Event types</Th>
                  <Th>Health (24h)</Th>
                  <Th>Created</Th>
                  <Th>
                    <span className="sr-only">Track</span>
                  </Th>
                </tr>
              </thead>
              <TBody cards>
                {rows.map((r) => (
                  <WebhookRow key={r.id} row={r} />
                ))}
              </TBody>
            </Table>
          </>
        )}
        <Pager
          newest={search.pageToken ? webhookListHref({ ...search, pageToken: undefined }) : null}
          older={nextPageToken ? webhookListHref({ ...search, pageToken: nextPageToken }) : null}
        />
      </section>
    </div>
  );
}

function WebhookRow({ row: r }: { row: TWebhookListRow }) {
  const w = r.webhook;
  const url = w?.url ?? r.tracked?.url ?? '';
  return (
    <tr className={`${CARD_ROW} hover:bg-slate-50`} data-testid="webhook-row" data-tracked={r.tracked ? 'true' : 'false'}>
      <Td card className="min-w-0">
        <WebhookName id={r.id} description={w?.description || r.tracked?.description} />
        <div className="mt-1 flex flex-wrap gap-1">
          {r.tracked ? (
            <Badge tone="violet" title={`Tracked by this console since ${formatUtc(r.tracked.createdAt)} UTC`}>
              tracked
            </Badge>
          ) : null}
          {r.tracked && !w ? <Badge tone="amber">not found in the service</Badge> : null}
        </div>
      </Td>
      <Td card="URL" className="max-w-md max-md:max-w-none">
        <div className="min-w-0">
          <code className="block truncate font-mono text-xs" title={url}>
            {url}
          </code>
          {r.receiver ? (
            <Link href={`/receivers/${r.receiver.id}`} className="text-xs text-slate-500 hover:underline">
              receiver: {r.receiver.name}
            </Link>
          ) : null}
        </div>
      </Td>
      <Td card="Events">
        <EventTypes types={w?.eventTypes} />
      </Td>
      <Td card="Health">
        <WebhookHealthStatus webhookId={r.id} disabled={w ? w.disabled : null} />
      </Td>
      <Td card="Created">{w ? <Timestamp value={w.createdAt} /> : <span className="text-xs text-slate-500">—</span>}</Td>
      <Td card className="text-right max-md:text-left">
        {r.tracked ? null : (
          <Can min="operator">
            <form action={trackListedWebhookAction}>
              <input type="hidden" name="webhookId" value={r.id} />
              <button type="submit" className={buttonClass('secondary', 'sm')} aria-label={`Track ${w?.description || r.id}`}>
                Track
              </button>
            </form>
          </Can>
        )}
      </Td>
    </tr>
  );
}

/** The description as the link with the id under it; without a description, the id alone is the link. */
function WebhookName({ id, description }: { id: string; description?: string | null }) {
  const href = `/webhooks/${encodeURIComponent(id)}`;
  if (!description) {
    return (
      <Link href={href} className="break-all font-mono text-xs font-medium text-indigo-700 hover:underline">
        {id}
      </Link>
    );
  }
  return (
    <>
      <Link href={href} className="font-medium text-indigo-700 hover:underline">
        {description}
      </Link>
      <div className="break-all font-mono text-xs text-slate-500">{id}</div>
    </>
  );
}

function EventTypes({ types }: { types?: string[] }) {
  if (!types) return <span className="text-xs text-slate-500">—</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {types.map((t) => (
        <Badge key={t} tone="blue">
          {t}
        </Badge>
      ))}
    </span>
  );
}
