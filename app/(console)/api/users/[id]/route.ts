// Console (admins): PATCH /api/users/{id} {role?, disabled?} — changes a role, deactivates (their
// sessions end at once) or reactivates; the last active admin can be neither demoted nor deactivated (409).
import { z } from 'zod';
import { changeUser } from '@/lib/console/staff/manage-users';
import { ROLES } from '@/lib/console/staff/roles';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

const ZPatch = z.object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() }).strict();

export const PATCH = withStaff<{ id: string }>({ role: 'admin' }, async ({ req, params, staff }) => {
  const patch = await readJson(req, ZPatch);
  if (patch.role === undefined && patch.disabled === undefined) throw new ApiError('bad_request', 'Send role or disabled (or both).');
  return json(await changeUser(staff, params.id, patch));
});

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods(['PATCH']);
