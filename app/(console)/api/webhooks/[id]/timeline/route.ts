// GET /api/webhooks/{id}/timeline — one page of a webhook's timeline (messages + attempts + receipts), polled by the page.
// ?status=&eventType=&pageLimit=(1–100, default 25)&pageToken=
import { z } from 'zod';
import { withStaff } from '@/lib/console/session';
import { connectApi } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { MESSAGE_STATUSES } from '@/lib/constants';
import { loadTimeline, TIMELINE_PAGE_SIZE } from '@/lib/console/timeline';
import { upstreamProblem } from '@/app/(console)/_lib/problem';
import { asConnectApiError } from '@/app/(console)/_lib/errors';
import { pageLimitParam } from '@/app/(console)/_lib/paging';

const ZQuery = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  eventType: z.string().max(100).optional(),
  pageToken: z.string().max(2000).optional(),
});

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const sp = req.nextUrl.searchParams;
  const pageLimit = pageLimitParam(sp, TIMELINE_PAGE_SIZE);
  // Empty filters are what the page's form sends for "any".
  const query = ZQuery.safeParse(Object.fromEntries([...sp].filter(([k, v]) => v !== '' && k !== 'pageLimit')));
  if (!query.success) throw new ApiError('bad_request', 'status must be pending, sending, success or failed; eventType and pageToken are strings.');
  try {
    const timeline = await loadTimeline(staff.environment, connectApi(staff.environment), params.id, { ...query.data, pageLimit });
    return json(timeline, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    const apiErr = asConnectApiError(err);
    if (apiErr) return upstreamProblem(apiErr);
    throw err;
  }
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
