// Console: GET /api/webhooks/{id}/export?format=csv|ndjson&status=&eventType=&since=&until=&includeDonor=1 —
// the webhook's filtered timeline as a download, streamed page by page (since/until exclusive, as the timeline's after/before).
import { connectApi } from '@/lib/console/connect-api';
import { exportTimeline } from '@/lib/console/export/export-timeline';
import { attachment, parseTimelineExportQuery } from '@/lib/console/export/export-query';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

const TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' } as const;

export const GET = withStaff<{ id: string }>({ audit: 'export' }, async ({ req, params, staff, audit, startReport }) => {
  audit({ target: [params.id] });
  const q = parseTimelineExportQuery(req.nextUrl.searchParams);
  audit({
    detail: {
      format: q.format,
      status: q.status ?? null,
      since: q.since?.toISOString() ?? null,
      until: q.until?.toISOString() ?? null,
      includeDonor: q.includeDonor ?? false,
    },
  });
  if (q.includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  startReport();
  const stream = await exportTimeline(staff.environment, connectApi(staff.environment), params.id, q);
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return new Response(stream, {
    headers: { 'content-type': TYPES[q.format], 'content-disposition': attachment(`${params.id}-${stamp}.${q.format}`), 'cache-control': 'no-store' },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
