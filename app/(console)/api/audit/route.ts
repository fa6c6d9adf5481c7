// Console: GET /api/audit?actor=&action=&target=&since=&until=&pageToken= — the audit log as JSON, newest first (read-only).
import { listAudit, parseAuditFilters } from '@/lib/console/audit/list-audit';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req }) => {
  const page = await listAudit(parseAuditFilters(req.nextUrl.searchParams));
  const results = page.rows.map((r) => ({ ...r, at: r.at.toISOString() }));
  return json({ results, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) }, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
