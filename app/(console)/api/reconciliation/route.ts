// Console: GET /api/reconciliation?date=YYYY-MM-DD&nonprofit=&format=json|csv&includeDonor=1 — a day's grants (in CONSOLE_TIME_ZONE)
// per nonprofit: made vs. sent, delivered, received and verified per webhook, and every grant × webhook that differs; streamed.
import { connectApi } from '@/lib/console/connect-api';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { attachment } from '@/lib/console/export/export-query';
import { reconciliationBody } from '@/lib/console/reconciliation/reconciliation-output';
import { parseReconQuery } from '@/lib/console/reconciliation/reconciliation-query';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { upstreamProblem } from '@/lib/console/upstream-problem';
import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { otherMethods } from '@/lib/http/respond';
import { asConnectApiError } from '@/app/(console)/_lib/errors';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req, staff }) => {
  const q = parseReconQuery(req.nextUrl.searchParams, env.CONSOLE_TIME_ZONE);
  if (q.includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  const detail = { kind: 'reconciliation', format: q.format, date: q.date, nonprofit: q.nonprofit ?? null, includeDonor: q.includeDonor };
  let body: ReadableStream<Uint8Array>;
  try {
    body = await reconciliationBody(connectApi(staff.environment), q);
  } catch (err) {
    const apiErr = asConnectApiError(err);
    if (!apiErr) throw err;
    if (q.format === 'csv') await recordAudit(await getDb(), { actor: staff, action: 'export', target: [], result: auditResultOf(apiErr), detail });
    return upstreamProblem(apiErr);
  }
  if (q.format === 'csv') {
    await recordAudit(await getDb(), { actor: staff, action: 'export', target: [], result: 'ok', detail });
    return new Response(body, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': attachment(`reconciliation-${q.date}${q.nonprofit ? `-${q.nonprofit}` : ''}.csv`), 'cache-control': 'no-store' },
    });
  }
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
