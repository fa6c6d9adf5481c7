// GET /api/webhooks/{id}/stats?window=1h|24h|7d — the webhook's stats from the API (EXT), what its receiver here saw, and its health, polled by its page's charts.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { parseHealthWindow } from '@/lib/console/health/health-query';
import { loadWebhookHealth } from '@/lib/console/health/load-webhook-health';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const window = parseHealthWindow(req.nextUrl.searchParams);
  return json(await loadWebhookHealth(staff.environment, connectApi(staff.environment), params.id, window), { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
