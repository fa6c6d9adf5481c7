// Console: GET /api/retention (admin) — the console's retention purge: settings, what it purged, what is due.
import { retentionStatus } from '@/lib/console/retention/retention-status';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff({ role: 'admin' }, async () => json(await retentionStatus(), { headers: { 'cache-control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
