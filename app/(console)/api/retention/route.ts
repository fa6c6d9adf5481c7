// Console: GET /api/retention — the console's retention purge: settings, what it purged, what is due.
// role: admin
import { retentionStatus } from '@/lib/console/retention/retention-status';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// role: admin
export const GET = withStaff(async () => json(await retentionStatus(), { headers: { 'cache-control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
