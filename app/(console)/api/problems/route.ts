// GET /api/problems?since=&until=&pageToken=&pageLimit= — every (message, webhook) across the account's
// webhooks that failed, is pending past its first retry, was sent but not received, arrived with a bad
// signature or was answered with an error; grouped by webhook with counts. Default range: the last 7 days.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { json, otherMethods } from '@/lib/http/respond';
import { findProblems, PROBLEMS_PAGE_SIZE } from '@/lib/console/investigation/find-problems';
import { parseProblemWindow } from '@/lib/console/investigation/problem-window';
import { parsePageLimit } from '@/lib/http/page-limit';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req, staff }) => {
  const sp = req.nextUrl.searchParams;
  const window = parseProblemWindow(sp);
  const pageLimit = parsePageLimit(sp, PROBLEMS_PAGE_SIZE);
  return json(await findProblems(staff.environment, connectApi(staff.environment), { ...window, pageLimit }), { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
