// GET /api/webhook-health?window=1h|24h|7d — every webhook of the account with its stats and health, troubled first (the health home, polled).
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { parseHealthWindow } from '@/lib/console/health/health-query';
import { loadHealthHome } from '@/lib/console/health/load-health-home';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req, staff }) => {
  const window = parseHealthWindow(req.nextUrl.searchParams);
  return json(await loadHealthHome(staff.environment, connectApi(staff.environment), window), { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
