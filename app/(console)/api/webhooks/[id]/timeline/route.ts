// GET /api/webhooks/{id}/timeline — one page of a webhook's timeline (messages, their receipts at its
// receiver, reconciliation and explanation, and the webhook's live settings), polled by the page.
// ?status=&eventType=&after=&before=&pageLimit=(1–100, default 25)&pageToken=
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { json, otherMethods } from '@/lib/http/respond';
import { loadTimeline, TIMELINE_PAGE_SIZE } from '@/lib/console/timeline/timeline-page';
import { parseTimelineQuery } from '@/lib/console/timeline/timeline-filters';
import { parsePageLimit } from '@/lib/http/page-limit';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const sp = req.nextUrl.searchParams;
  const pageLimit = parsePageLimit(sp, TIMELINE_PAGE_SIZE);
  const timeline = await loadTimeline(staff.environment, connectApi(staff.environment), params.id, { ...parseTimelineQuery(sp), pageLimit });
  return json(timeline, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
