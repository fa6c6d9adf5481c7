'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireRole } from '@/lib/console/staff/session';
import { addUser, changeUser, resetUserPassword } from '@/lib/console/staff/manage-users';
import { ROLES } from '@/lib/console/staff/roles';
import { actionErrorInfo, type TActionResult } from '../_lib/errors';

// The users page's actions (admins only): add, change a role or deactivate, reset a password.

const ZAdd = z.object({ email: z.string().max(320), role: z.enum(ROLES), signIn: z.enum(['password', 'sso']) });
const ZPatch = z.object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() });

export async function addUserAction(input: { email: string; role: string; signIn: string }): Promise<TActionResult<{ email: string; password?: string }>> {
  const staff = await requireRole('admin', '/users');
  const parsed = ZAdd.safeParse(input);
  if (!parsed.success) return { ok: false, error: { message: 'Enter an e-mail address and choose a role.' } };
  try {
    const { user, password } = await addUser(staff, parsed.data);
    revalidatePath('/users');
    return { ok: true, data: { email: user.email, password } };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

export async function changeUserAction(id: string, patch: { role?: string; disabled?: boolean }): Promise<TActionResult> {
  const staff = await requireRole('admin', '/users');
  const parsed = ZPatch.safeParse(patch);
  if (!parsed.success) return { ok: false, error: { message: 'role must be viewer, operator or admin.' } };
  try {
    await changeUser(staff, String(id), parsed.data);
    revalidatePath('/users');
    return { ok: true };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

export async function resetPasswordAction(id: string): Promise<TActionResult<{ email: string; password: string }>> {
  const staff = await requireRole('admin', '/users');
  try {
    const { user, password } = await resetUserPassword(staff, String(id));
    revalidatePath('/users');
    return { ok: true, data: { email: user.email, password } };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
