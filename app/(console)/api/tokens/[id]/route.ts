// Console: DELETE /api/tokens/{id} — revokes one of the caller's personal access tokens at once: its open streams end at their next heartbeat.
import { revokeToken } from '@/lib/console/staff/personal-tokens';
import { withStaff } from '@/lib/console/staff/with-staff';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const DELETE = withStaff<{ id: string }>({ role: 'operator' }, async ({ params, staff }) => {
  if (!(await revokeToken(staff, params.id))) throw new ApiError('not_found', 'You have no such token.');
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods(['DELETE']);
