// Console (admins): GET /api/users — the staff users (e-mail, role, how they sign in, last sign-in);
// POST {email, role, signIn: 'password'|'sso'} — adds one; the one-time password is in this answer only.
import { z } from 'zod';
import { addUser } from '@/lib/console/staff/manage-users';
import { ROLES } from '@/lib/console/staff/roles';
import { listUsers } from '@/lib/console/staff/users';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

const ZCreate = z
  .object({ email: z.string().max(320), role: z.enum(ROLES).default('viewer'), signIn: z.enum(['password', 'sso']).default('password') })
  .strict();

export const GET = withStaff({ role: 'admin' }, async () => json({ results: await listUsers() }, { headers: { 'cache-control': 'no-store' } }));

export const POST = withStaff({ role: 'admin' }, async ({ req, staff }) => {
  const input = await readJson(req, ZCreate);
  return json(await addUser(staff, input), { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
