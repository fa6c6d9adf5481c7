// Console: one receipt as JSON (headers, body as base64 and, when text, as text), its forwards, and
// for operators and admins the command that sends it again (`curl`; null for a viewer).
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceipt, receiptJson } from '@/lib/console/receivers';
import { receiptCurl } from '@/lib/console/export/request-curl';
import { forwardsOf } from '@/lib/console/forward/forwards';
import { hasRole } from '@/lib/console/staff/roles';
import { withStaff } from '@/lib/console/staff/with-staff';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ params, staff }) => {
  const receipt = /^\d{1,15}$/.test(params.id) ? await getReceipt(Number(params.id)) : null;
  if (!receipt) throw new ApiError('not_found', 'No such receipt.');
  const curl = hasRole(staff.role, 'operator') ? receiptCurl(receipt) : null;
  return json({ ...receiptJson(receipt), forwards: await forwardsOf([receipt.id]), curl: curl?.command ?? null, curlUtf8: curl?.utf8 ?? null });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
