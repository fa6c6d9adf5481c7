'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { addUser, changeUser, resetUserPassword } from '@/lib/console/staff/manage-users';
import { ROLES } from '@/lib/console/staff/roles';
import { staffAction } from '@/lib/console/staff/staff-action';

// The users page's actions (admins only): add, change a role or deactivate, reset a password.
// Each is audited by lib/console/staff/manage-users.ts.

const admin = { role: 'admin', next: '/users' } as const;
// The client sends what its selects hold: strings, checked here.
const ZRole = z.string().pipe(z.enum(ROLES));
const ZAdd = z.object({ email: z.string().max(320), role: ZRole, signIn: z.string().pipe(z.enum(['password', 'sso'])) });
const ZPatch = z.object({ role: ZRole.optional(), disabled: z.boolean().optional() });

export const addUserAction = staffAction(
  { ...admin, input: z.tuple([ZAdd]), invalid: 'Enter an e-mail address and choose a role.' },
  async ({ staff, input: [input] }): Promise<{ data: { email: string; password?: string } }> => {
    const { user, password } = await addUser(staff, input);
    revalidatePath('/users');
    return { data: { email: user.email, password } };
  },
);

export const changeUserAction = staffAction(
  { ...admin, input: z.tuple([z.coerce.string(), ZPatch]), invalid: 'role must be viewer, operator or admin.' },
  async ({ staff, input: [id, patch] }) => {
    await changeUser(staff, id, patch);
    revalidatePath('/users');
  },
);

export const resetPasswordAction = staffAction(
  { ...admin, input: z.tuple([z.coerce.string()]) },
  async ({ staff, input: [id] }): Promise<{ data: { email: string; password: string } }> => {
    const { user, password } = await resetUserPassword(staff, id);
    revalidatePath('/users');
    return { data: { email: user.email, password } };
  },
);
