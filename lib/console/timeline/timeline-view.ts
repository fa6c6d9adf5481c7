import 'server-only';
import { notFound } from 'next/navigation';
import { loadOrError } from '../connect-api/load-or-error';
import { getReceiver } from '../receivers';
import { staffView } from '../staff/staff-view';
import { getTrackedWebhook } from '../webhooks/tracked-webhooks';
import { loadOutage } from '../recover/load-outage';
import { loadTimeline } from './timeline-page';
import type { TTimelineFilters } from './timeline-types';

// The webhook page's view: the first page of its timeline (an API failure as an inline error, a
// 404 as the not-found page), what this console tracks of it, and the receiver it was created for
// when its URL no longer points there. A viewer gets it masked (staffView).

export const loadTimelineView = staffView(async ({ staff, api }, webhookId: string, filters: TTimelineFilters) => {
  const [timeline, tracked] = await Promise.all([
    loadOrError(() => loadTimeline(staff.environment, api, webhookId, filters)),
    getTrackedWebhook(staff.environment, webhookId),
  ]);
  if (timeline.error?.status === 404) notFound();
  const createdFor = !timeline.data?.receiver && tracked?.receiverId ? await getReceiver(tracked.receiverId) : null;
  // Failing or after an outage: when it will be disabled, and the gap its last outage left (a failed read shows nothing).
  const webhook = timeline.data?.webhook;
  const outage = webhook ? await loadOutage(api, webhook).catch(() => null) : null;
  return {
    outage,
    ...(timeline.data ? { timeline: timeline.data, error: null } : { timeline: null, error: timeline.error }),
    tracked: tracked ? { description: tracked.description, url: tracked.url } : null,
    createdFor: createdFor ? { id: createdFor.id, name: createdFor.name, slug: createdFor.slug } : null,
  };
});
