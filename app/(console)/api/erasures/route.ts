// Console: POST /api/erasures {email | grantId, dryRun?} — one donor's data erased in the service and
// in this console's receipts (dryRun: what would be, by count), one report of both; audited by hash. Admins only.
import { connectApi } from '@/lib/console/connect-api';
import { eraseDonorEverywhere, ZErasureRequest } from '@/lib/console/erasures/erase-donor';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff({ role: 'admin' }, async ({ req, staff }) => {
  const body = await readJson(req, ZErasureRequest);
  return json(await eraseDonorEverywhere(staff, connectApi(staff.environment), body), { headers: { 'cache-control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
