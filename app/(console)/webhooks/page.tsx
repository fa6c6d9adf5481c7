import { Pager } from '@/components/console/pager';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Can } from '@/components/console/role';
import { Badge } from '@/components/console/badge';
import { ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { buttonClass } from '@/components/console/button-class';
import { PageHeader } from '@/components/console/page-header';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { loadWebhookList } from '@/lib/console/webhooks/webhook-list';
import { TrackWebhookForm } from './track-form';
import { WebhookHealthStatus } from './webhook-health-status';
import { trackListedWebhookAction } from './actions';
import { pageQuery, ZPageTokenSearch, type TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage({ searchParams }: TPageProps) {
  const { staff, api } = await staffApi();
  const { pageToken } = pageQuery(await searchParams, ZPageTokenSearch);

  const { tracked, webhooks, receiverById, listed, listSupported, untracked } = await loadWebhookList(staff.environment, api, pageToken);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description={<>Subscriptions of the {staff.environment} account this console signs in as. Open one to see its delivery timeline beside what actually arrived.</>}
        actions={
          <Can min="operator">
            <Link href="/webhooks/new" className={buttonClass('primary')}>
              New subscription
            </Link>
          </Can>
        }
      />

      <section className="space-y-2">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Tracked by this console</h2>
          <TrackWebhookForm />
        </div>
        {tracked.length === 0 ? (
          <EmptyState
            title="No subscriptions tracked yet"
            action={
              <Can min="operator">
                <Link href="/webhooks/new" className={buttonClass('primary')}>
                  Create a subscription
                </Link>
              </Can>
            }
          >
            Create a subscription — by default it points at a new receiver of this console, so every delivery is stored and its signature checked. Or paste the id of an
            existing webhook (<code className="font-mono">ep_…</code>) into <strong>Track by id</strong>.
          </EmptyState>
        ) : (
          <Table label="Tracked webhooks">
            <thead>
              <tr>
                <Th>Webhook</Th>
                <Th>URL</Th>
                <Th>Event types</Th>
                <Th>Health (24h)</Th>
                <Th>Tracked since</Th>
              </tr>
            </thead>
            <TBody>
              {tracked.map((t) => {
                const w = webhooks.get(t.webhookId) ?? null;
                const receiver = t.receiverId ? receiverById.get(t.receiverId) : undefined;
                return (
                  <tr key={t.webhookId} className="hover:bg-slate-50" data-testid="webhook-row">
                    <Td>
                      <WebhookName id={t.webhookId} description={w?.description || t.description} />
                      {/* On a narrow screen the table scrolls: the health goes under the name too. */}
                      <div className="mt-1 md:hidden">
                        <WebhookHealthStatus webhookId={t.webhookId} disabled={w ? w.disabled : null} />
                      </div>
                    </Td>
                    <Td className="max-w-md">
                      <code className="block truncate font-mono text-xs" title={w?.url ?? t.url}>
                        {w?.url ?? t.url}
                      </code>
                      {receiver ? (
                        <Link href={`/receivers/${receiver.id}`} className="text-xs text-slate-500 hover:underline">
                          receiver: {receiver.name}
                        </Link>
                      ) : null}
                    </Td>
                    <Td>
                      <EventTypes types={w?.eventTypes} />
                    </Td>
                    <Td>
                      <WebhookHealthStatus webhookId={t.webhookId} disabled={w ? w.disabled : null} />
                    </Td>
                    <Td>
                      <Timestamp value={t.createdAt} />
                    </Td>
                  </tr>
                );
              })}
            </TBody>
          </Table>
        )}
      </section>

      {listSupported ? (
        <section className="space-y-2">
          <h2 className="text-base font-semibold text-slate-900">Other webhooks of this account</h2>
          {listed.error ? (
            <ErrorCallout error={listed.error} title="The service's list of webhooks could not be loaded" />
          ) : untracked.length === 0 ? (
            <p className="text-sm text-slate-500">{pageToken ? 'No untracked webhooks on this page.' : 'Every webhook of this account is tracked above.'}</p>
          ) : (
            <Table label="Other webhooks">
              <thead>
                <tr>
                  <Th>Webhook</Th>
                  <Th>URL</Th>
                  <Th>Event types</Th>
                  <Th>Health (24h)</Th>
                  <Th>Created</Th>
                  <Th />
                </tr>
              </thead>
              <TBody>
                {untracked.map((w) => (
                  <tr key={w.id} className="hover:bg-slate-50">
                    <Td>
                      <WebhookName id={w.id} description={w.description} />
                      <div className="mt-1 md:hidden">
                        <WebhookHealthStatus webhookId={w.id} disabled={w.disabled} />
                      </div>
                    </Td>
                    <Td className="max-w-md">
                      <code className="block truncate font-mono text-xs" title={w.url}>
                        {w.url}
                      </code>
                    </Td>
                    <Td>
                      <EventTypes types={w.eventTypes} />
                    </Td>
                    <Td>
                      <WebhookHealthStatus webhookId={w.id} disabled={w.disabled} />
                    </Td>
                    <Td>
                      <Timestamp value={w.createdAt} />
                    </Td>
                    <Td className="text-right">
                      <form action={trackListedWebhookAction}>
                        <input type="hidden" name="webhookId" value={w.id} />
                        <button type="submit" className={buttonClass('secondary', 'sm')}>
                          Track
                        </button>
                      </form>
                    </Td>
                  </tr>
                ))}
              </TBody>
            </Table>
          )}
          <Pager older={listed.data?.nextPageToken ? `/webhooks?pageToken=${encodeURIComponent(listed.data.nextPageToken)}` : null} />
        </section>
      ) : null}
    </div>
  );
}

/** The description as the link with the id under it; without a description, the id alone is the link. */
function WebhookName({ id, description }: { id: string; description?: string | null }) {
  const href = `/webhooks/${encodeURIComponent(id)}`;
  if (!description) {
    return (
      <Link href={href} className="whitespace-nowrap font-mono text-xs font-medium text-indigo-700 hover:underline">
        {id}
      </Link>
    );
  }
  return (
    <>
      <Link href={href} className="font-medium text-indigo-700 hover:underline">
        {description}
      </Link>
      <div className="whitespace-nowrap font-mono text-xs text-slate-500">{id}</div>
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
