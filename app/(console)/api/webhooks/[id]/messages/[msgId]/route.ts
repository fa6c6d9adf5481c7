// GET /api/webhooks/{id}/messages/{msgId} — one message at one webhook in full: every attempt with its
// response body, the receipts at the webhook's receiver, both in time order, reconciliation and explanation;
// for operators and admins `curls`, the "Copy as cURL" commands of its attempts and receipts.
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';
import { json, otherMethods } from '@/lib/http/respond';
import { loadMessageDetail } from '@/lib/console/timeline/message-detail';
import { messageCurls } from '@/lib/console/export/request-curl';
import { hasRole } from '@/lib/console/staff/roles';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string; msgId: string }>(async ({ params, staff }) => {
  const api = connectApi(staff.environment);
  const detail = await loadMessageDetail(staff.environment, api, params.id, params.msgId);
  const curls = hasRole(staff.role, 'operator') ? await messageCurls(api, detail) : null;
  return json({ ...detail, curls }, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
