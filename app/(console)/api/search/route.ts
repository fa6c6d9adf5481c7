// GET /api/search?q= — a tracking id, grant id, message id, event id, donor e-mail or webhook id → the case:
// the grant, its messages and, for every webhook of the account, attempts, receipts, reconciliation, explanation.
// q=path.to.field=value or q="free text" (&since=&until=, the last 7 days by default, at most 31) → the
// receipts' bodies and messages' payloads that match, listed as cases.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { buildCase } from '@/lib/console/investigation/build-case';
import { searchTermProblem } from '@/lib/console/investigation/search-query';
import { parsePayloadQuery } from '@/lib/console/search/payload-query';
import { searchPayloads } from '@/lib/console/search/search-payloads';
import { searchWindow } from '@/lib/console/search/search-window';

export const dynamic = 'force-dynamic';

const badQ = (problem: string) => new ApiError('bad_request', `q ${problem}.`, { errors: [{ path: 'q', message: problem }] });

export const GET = withStaff(async ({ req, staff }) => {
  const params = req.nextUrl.searchParams;
  const q = params.get('q')?.trim() ?? '';
  const problem = searchTermProblem(q);
  if (problem) throw badQ(problem);
  const payload = parsePayloadQuery(q);
  const headers = { 'cache-control': 'no-store' };
  if (!payload) return json(await buildCase(staff.environment, connectApi(staff.environment), q), { headers });
  if ('problem' in payload) throw new ApiError('bad_request', `q: ${payload.problem}.`, { errors: [{ path: 'q', message: payload.problem }] });
  const window = searchWindow(params);
  return json(await searchPayloads(staff.environment, connectApi(staff.environment), q, payload.query, window), { headers });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
