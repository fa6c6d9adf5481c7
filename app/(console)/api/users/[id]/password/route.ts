// Console (admins): POST /api/users/{id}/password — a new one-time password, in this answer only; the user's sessions end.
import { resetUserPassword } from '@/lib/console/staff/manage-users';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'admin' }, async ({ params, staff }) =>
  json(await resetUserPassword(staff, params.id), { headers: { 'cache-control': 'no-store' } }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
