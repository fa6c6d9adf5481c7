// GET /api/webhooks/{id}/outage — when the service will disable the webhook (while it fails) and the
// gap its last outage left (never sent while disabled, failed for good), as its page says them;
// POST — "recover all": replay-missing + recover over those windows, audited; 202 with both runs.
import { connectApi } from '@/lib/console/connect-api';
import { loadOutage } from '@/lib/console/recover/load-outage';
import { runRecoverGap } from '@/lib/console/recover/recover-gap';
import { toWebhookView } from '@/lib/console/webhooks/webhook-view';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ params, staff }) => {
  const api = connectApi(staff.environment);
  const webhook = toWebhookView(await api.get('/v1/webhooks/{id}', { params: { path: { id: params.id } } }));
  return json(await loadOutage(api, webhook), { headers: { 'cache-control': 'no-store' } });
});

export const POST = withStaff<{ id: string }>({ role: 'operator' }, async ({ params, staff }) => {
  return json(await runRecoverGap(staff, connectApi(staff.environment), params.id), { status: 202, headers: { 'cache-control': 'no-store' } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
