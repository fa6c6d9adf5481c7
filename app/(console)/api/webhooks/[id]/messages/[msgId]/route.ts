// GET /api/webhooks/{id}/messages/{msgId} — one message at one webhook in full: every attempt with its
// response body, the receipts at the webhook's receiver, both in time order, reconciliation and explanation.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { json, otherMethods } from '@/lib/http/respond';
import { loadMessageDetail } from '@/lib/console/timeline/timeline';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string; msgId: string }>(async ({ params, staff }) => {
  const detail = await loadMessageDetail(staff.environment, connectApi(staff.environment), params.id, params.msgId);
  return json(detail, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
