// Console: GET /api/webhooks/{id}/export?format=csv|ndjson&status=&eventType=&since=&until=&includeDonor=1 —
// the webhook's filtered timeline as a download, streamed page by page (since/until exclusive, as the timeline's after/before).
import { connectApi } from '@/lib/console/connect-api';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { exportTimeline } from '@/lib/console/export/export-timeline';
import { attachment, parseTimelineExportQuery } from '@/lib/console/export/export-query';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { getDb } from '@/lib/db/client';
import { otherMethods } from '@/lib/http/respond';
import { upstreamProblem } from '@/lib/console/upstream-problem';
import { asConnectApiError } from '@/app/(console)/_lib/errors';

export const dynamic = 'force-dynamic';

const TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' } as const;

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const q = parseTimelineExportQuery(req.nextUrl.searchParams);
  if (q.includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  const detail = { format: q.format, status: q.status ?? null, since: q.since?.toISOString() ?? null, until: q.until?.toISOString() ?? null, includeDonor: q.includeDonor ?? false };
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await exportTimeline(staff.environment, connectApi(staff.environment), params.id, q);
  } catch (err) {
    const apiErr = asConnectApiError(err);
    if (!apiErr) throw err;
    await recordAudit(await getDb(), { actor: staff, action: 'export', target: [params.id], result: auditResultOf(apiErr), detail });
    return upstreamProblem(apiErr);
  }
  await recordAudit(await getDb(), { actor: staff, action: 'export', target: [params.id], result: 'ok', detail });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return new Response(stream, {
    headers: { 'content-type': TYPES[q.format], 'content-disposition': attachment(`${params.id}-${stamp}.${q.format}`), 'cache-control': 'no-store' },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
