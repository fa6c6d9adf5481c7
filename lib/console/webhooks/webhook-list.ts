import 'server-only';
import { z } from 'zod';
import type { ConnectApi, TWebhook } from '@/lib/console/connect-api';
import { loadOrError } from '../connect-api/load-or-error';
import type { TEnvironmentName } from '../connect-api/environments';
import { mapLimit } from '../map-limit';
import { listReceivers } from '../receivers/manage-receivers';
import { staffView } from '../staff/staff-view';
import { listTrackedWebhooks, type TTrackedWebhook } from './tracked-webhooks';

// The webhooks page's one list (issue 41 item 7): the account's webhooks from the service's list
// (EXT, a page at a time, newest first), each marked tracked when this console tracks it, with the
// tracked ones the list cannot show (gone from the service, or a service without the list) on the
// first page. Filters: tracked (all / yes / no) and status (any / enabled / disabled), as the
// page's query, so a filtered list is a link. "Tracked" needs no service paging (every tracked
// webhook is here); "not tracked" and the status filter keep the page the service gave.

const LIST_PAGE_SIZE = 50;

export const ZWebhookListSearch = z.object({
  pageToken: z.string().max(2000).optional().catch(undefined),
  tracked: z.enum(['yes', 'no']).optional().catch(undefined),
  status: z.enum(['enabled', 'disabled']).optional().catch(undefined),
});
export type TWebhookListSearch = z.output<typeof ZWebhookListSearch>;

export type TWebhookListRow = {
  id: string;
  /** The service's record (null: it could not be read, e.g. deleted there). */
  webhook: TWebhook | null;
  /** This console's record when it tracks the webhook. */
  tracked: TTrackedWebhook | null;
  receiver: { id: string; name: string } | null;
};

function matches(row: TWebhookListRow, search: TWebhookListSearch): boolean {
  if (search.tracked === 'yes' && !row.tracked) return false;
  if (search.tracked === 'no' && row.tracked) return false;
  if (search.status && (!row.webhook || row.webhook.disabled !== (search.status === 'disabled'))) return false;
  return true;
}

/** The webhooks page's view (a viewer gets it masked). */
export const loadWebhookList = staffView(async ({ staff, api }, search: TWebhookListSearch) => webhookList(staff.environment, api, search));

async function webhookList(environment: TEnvironmentName, api: ConnectApi, search: TWebhookListSearch) {
  const onlyTracked = search.tracked === 'yes';
  const [tracked, receivers, listed] = await Promise.all([
    listTrackedWebhooks(environment),
    listReceivers(),
    loadOrError(() => api.get('/v1/webhooks', { params: { query: { pageLimit: LIST_PAGE_SIZE, pageToken: onlyTracked ? undefined : search.pageToken } } })),
  ]);
  const listSupported = !listed.unsupported;
  const page = listed.data?.results ?? [];
  const webhooks = new Map<string, TWebhook | null>(page.map((w) => [w.id, w]));
  // Tracked webhooks not on this page of the service's list: ask for each (EXT; skipped when unsupported).
  if (listSupported) {
    const missing = tracked.filter((t) => !webhooks.has(t.webhookId));
    const got = await mapLimit(
      missing,
      6,
      async (t) => (await loadOrError(() => api.get('/v1/webhooks/{id}', { params: { path: { id: t.webhookId } } }))).data ?? null,
    );
    missing.forEach((t, i) => webhooks.set(t.webhookId, got[i]));
  }
  const trackedById = new Map(tracked.map((t) => [t.webhookId, t]));
  const receiverById = new Map(receivers.map((r) => [r.id, { id: r.id, name: r.name }]));
  const row = (id: string): TWebhookListRow => {
    const t = trackedById.get(id) ?? null;
    return { id, webhook: webhooks.get(id) ?? null, tracked: t, receiver: t?.receiverId ? (receiverById.get(t.receiverId) ?? null) : null };
  };
  const firstPage = !search.pageToken;
  const pageIds = new Set(page.map((w) => w.id));
  // Tracked webhooks the service's list will never show: on the first page (all of them when tracked only, or without the list).
  const unlisted = tracked
    .filter((t) => !pageIds.has(t.webhookId) && (onlyTracked || !listSupported || webhooks.get(t.webhookId) === null))
    .map((t) => t.webhookId);
  const ids = onlyTracked ? tracked.map((t) => t.webhookId) : [...page.map((w) => w.id), ...(firstPage ? unlisted : [])];
  const rows = ids.map(row);
  return {
    rows: rows.filter((r) => matches(r, search)),
    /** Rows on this page before the filters (0 with none: the account has no webhook, or none on this page). */
    unfiltered: rows.length,
    trackedCount: tracked.length,
    listed,
    listSupported,
    nextPageToken: onlyTracked ? undefined : listed.data?.nextPageToken,
  };
}
