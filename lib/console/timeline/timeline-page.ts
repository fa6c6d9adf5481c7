import 'server-only';
import type { ConnectApi, TMessage } from '@/lib/console/connect-api';
import { ATTEMPT_FETCH_CONCURRENCY, withLastResponse } from './attempts-of-message';
import type { TExplainTimes } from './explain-delivery';
import { receiversOfDelivery } from './join-delivery';
import { joinMessages } from './join-messages';
import { deliveryOf } from './message-delivery';
import { mapLimit } from '../map-limit';
import { sameDestination } from '../receivers/receiver-urls';
import { siblingWebhooks } from './sibling-webhooks';
import type { TEnvironmentName } from '../staff/session';
import { readTimelineContext } from './timeline-context';
import type { TTimeline, TTimelineFilters } from './timeline-types';

// One page of a webhook's timeline: the API's messages and attempts joined with the receipts at
// the receiver those attempts went to. The page renders the first paint with it; the JSON route
// the page polls calls the same function (one message in full: message-detail.ts).
//
// API calls per timeline page: the message list (whose EXT lastAttempt makes a call per message
// unnecessary), Get webhook, and the webhook's secret only when a signature failed. A service
// without lastAttempt costs one attempts call per changed message (cached while unchanged).

export const TIMELINE_PAGE_SIZE = 25;

export async function loadTimeline(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  filters: TTimelineFilters,
  options: { times?: TExplainTimes } = {},
): Promise<TTimeline> {
  return (await readTimelinePage(envName, api, webhookId, filters, options)).timeline;
}

/** The newest timestamp of a page of messages (the API lists newest first; filters may not). */
const newestTimestamp = (messages: readonly { timestamp: string }[]): string | undefined =>
  messages.reduce<string | undefined>((newest, m) => (newest === undefined || Date.parse(m.timestamp) > Date.parse(newest) ? m.timestamp : newest), undefined);

/**
 * A timeline page and the messages as the API listed them. `content`: each with its payload and
 * all its attempts from the list itself (EXT withContent, withAttempts) — what an export writes —
 * so a page is one call whatever it holds.
 */
export async function readTimelinePage(
  envName: TEnvironmentName,
  api: ConnectApi,
  webhookId: string,
  filters: TTimelineFilters,
  { times, content = false }: { times?: TExplainTimes; content?: boolean } = {},
): Promise<{ timeline: TTimeline; listed: TMessage[] }> {
  // Before the API is read: receipts stored later are newer than its answer (reconcile.ts).
  const asOf = new Date();
  const [page, ctx] = await Promise.all([
    api.get('/v1/webhooks/{id}/messages', {
      params: {
        path: { id: webhookId },
        query: {
          pageLimit: filters.pageLimit ?? TIMELINE_PAGE_SIZE,
          pageToken: filters.pageToken || undefined,
          // As the address bar has them: the service answers a 400 naming one it does not know.
          status: (filters.status || undefined) as TMessage['status'] | undefined,
          eventType: (filters.eventType || undefined) as TMessage['eventType'] | undefined,
          after: filters.after || undefined,
          before: filters.before || undefined,
          ...(content ? ({ withContent: 'true', withAttempts: 'true' } as const) : {}),
        },
      },
    }),
    readTimelineContext(envName, api, webhookId),
  ]);
  const { webhookUrl, settings, receivers, addresses } = ctx;
  // The newest message on the page decides whether the list of siblings was read recently enough (read again if not).
  const siblings = await siblingWebhooks(envName, api, webhookId, newestTimestamp(page.results));
  const deliveries = await mapLimit(page.results, ATTEMPT_FETCH_CONCURRENCY, async (m) =>
    withLastResponse(api, webhookId, m.id, await deliveryOf(envName, api, webhookId, m)),
  );
  const now = new Date();
  const messages = await joinMessages(api, {
    webhookId,
    messages: page.results,
    deliveries,
    webhook: settings,
    webhookUrl,
    receivers,
    addresses,
    siblings,
    asOf,
    now,
    times,
  });
  const receiver = receiversOfDelivery([], webhookUrl, receivers, addresses)[0];
  const timeline: TTimeline = {
    webhook: settings,
    receiver: receiver ? { id: receiver.id, name: receiver.name, slug: receiver.slug } : null,
    messages,
    sharedUrlWith: receiver ? siblings.filter((w) => sameDestination(w.url, webhookUrl)).map((w) => ({ id: w.id, description: w.description })) : [],
    nextPageToken: page.nextPageToken ?? null,
    fetchedAt: now.toISOString(),
  };
  return { timeline, listed: page.results };
}
