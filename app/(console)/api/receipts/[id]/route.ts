// Console: one receipt as JSON (headers, body as base64 and, when text, as text).
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceipt, receiptJson } from '@/lib/console/receivers';
import { withStaff } from '@/lib/console/staff/with-staff';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ params }) => {
  const receipt = /^\d{1,15}$/.test(params.id) ? await getReceipt(Number(params.id)) : null;
  if (!receipt) throw new ApiError('not_found', 'No such receipt.');
  return json(receiptJson(receipt));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
