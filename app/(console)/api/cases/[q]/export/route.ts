// Console: GET /api/cases/{q}/export?includeDonor=1 — the case the page /cases/{q} shows, as a JSON evidence bundle.
import { buildCaseForExport, caseBundle } from '@/lib/console/export/export-case';
import { attachment, parseIncludeDonor } from '@/lib/console/export/export-query';
import { searchTermProblem } from '@/lib/console/investigation/search-query';
import { connectApi } from '@/lib/console/connect-api';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ q: string }>({ audit: 'export' }, async ({ req, params, staff, audit, startReport }) => {
  const includeDonor = parseIncludeDonor(req.nextUrl.searchParams);
  audit({ detail: { format: 'case', includeDonor } });
  if (includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  const q = decoded(params.q).trim().slice(0, 254);
  const problem = searchTermProblem(q);
  if (problem) throw new ApiError('bad_request', `The search term ${problem}.`);
  startReport();
  const found = await buildCaseForExport(staff.environment, connectApi(staff.environment), q);
  audit({ target: found.messages.map((m) => m.id).slice(0, 10) });
  const bundle = caseBundle(found, staff, includeDonor);
  return new Response(`${JSON.stringify(bundle, null, 2)}\n`, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': attachment(`case-${found.kind}-${new Date().toISOString().slice(0, 10)}.json`),
      'cache-control': 'no-store',
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);

/** Next hands params percent-encoded or not depending on the characters; decode once, safely. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
