// Console: POST /api/session/password {currentPassword, newPassword} — the signed-in staff member
// changes their own password (a one-time one must be, before any other route answers); their other
// sessions end, this one stays. 204; a wrong current password or a weak new one is a 400 naming the field.
import { z } from 'zod';
import { changeOwnPassword } from '@/lib/console/staff/change-password';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { otherMethods } from '@/lib/http/respond';
import { sourceAddress } from '@/lib/http/source-address';

export const dynamic = 'force-dynamic';

const ZChange = z.object({ currentPassword: z.string().max(1024), newPassword: z.string().max(1024) }).strict();

export const POST = withStaff({ ownData: true, beforePasswordChange: true }, async ({ req, staff }) => {
  const input = await readJson(req, ZChange);
  await changeOwnPassword(staff, input, sourceAddress(req.headers.get('x-forwarded-for')));
  return new Response(null, { status: 204 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
