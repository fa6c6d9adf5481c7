// Console: POST /api/receipts/{id}/forward {url, mode: verbatim | resign, secret?} — the receipt sent
// again to a URL, the reply kept as a forward beside it (201). Operators and admins.
import { forwardReceipt, ZForwardBody } from '@/lib/console/forward/forward-receipt';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  if (!/^\d{1,15}$/.test(params.id)) throw new ApiError('not_found', 'No such receipt.');
  const body = await readJson(req, ZForwardBody);
  return json(await forwardReceipt(staff, Number(params.id), body), { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
