// GET /api/webhooks/{id}/stats?window=1h|24h|7d — the webhook's stats from the API (EXT) and its health, polled by its page's charts.
import { withStaff } from '@/lib/console/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { classifyHealth } from '@/lib/console/health/classify-health';
import { parseHealthWindow } from '@/lib/console/health/health-query';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const window = parseHealthWindow(req.nextUrl.searchParams);
  const stats = await connectApi(staff.environment).getWebhookStats(params.id, window);
  return json({ stats, health: classifyHealth(stats, stats.disabled) }, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
