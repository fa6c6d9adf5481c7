// GET /api/search?q= — a tracking id, grant id, message id, event id, donor e-mail or webhook id → the case:
// the grant, its messages and, for every webhook of the account, attempts, receipts, reconciliation, explanation.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { buildCase } from '@/lib/console/investigation/build-case';
import { searchTermProblem } from '@/lib/console/investigation/search-query';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req, staff }) => {
  const q = req.nextUrl.searchParams.get('q')?.trim() ?? '';
  const problem = searchTermProblem(q);
  if (problem) throw new ApiError('bad_request', `q ${problem}.`, { errors: [{ path: 'q', message: problem }] });
  return json(await buildCase(staff.environment, connectApi(staff.environment), q), { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
