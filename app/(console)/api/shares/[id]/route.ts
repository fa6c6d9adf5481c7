// Console: DELETE /api/shares/{id} — revokes a share link at once (operators); its URL then answers 410.
import { revokeShare } from '@/lib/console/share/shares';
import { withStaff } from '@/lib/console/staff/with-staff';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const DELETE = withStaff<{ id: string }>({ role: 'operator' }, async ({ params, staff }) => {
  if (!(await revokeShare(staff, params.id))) throw new ApiError('not_found', 'No such share link.');
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods(['DELETE']);
