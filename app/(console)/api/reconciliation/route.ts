// Console: GET /api/reconciliation?date=YYYY-MM-DD&nonprofit=&format=json|csv&includeDonor=1 — a day's grants (in CONSOLE_TIME_ZONE)
// per nonprofit: made vs. sent, delivered, received and verified per webhook, and every grant × webhook that differs; streamed; audited as an export.
import { connectApi } from '@/lib/console/connect-api';
import { attachment } from '@/lib/console/export/export-query';
import { reconciliationBody } from '@/lib/console/reconciliation/reconciliation-output';
import { parseReconQuery } from '@/lib/console/reconciliation/reconciliation-query';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { env } from '@/lib/env';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff({ audit: 'export' }, async ({ req, staff, audit, startReport }) => {
  const q = parseReconQuery(req.nextUrl.searchParams, env.CONSOLE_TIME_ZONE);
  audit({ detail: { kind: 'reconciliation', format: q.format, date: q.date, nonprofit: q.nonprofit ?? null, includeDonor: q.includeDonor } });
  if (q.includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  startReport();
  const body = await reconciliationBody(connectApi(staff.environment), q);
  if (q.format === 'csv') {
    const name = `reconciliation-${q.date}${q.nonprofit ? `-${q.nonprofit}` : ''}.csv`;
    return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': attachment(name), 'cache-control': 'no-store' } });
  }
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
