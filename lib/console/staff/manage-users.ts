import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { auditResultOf, recordAudit } from '../audit/record-audit';
import type { TRole } from './roles';
import type { TStaff } from './session';
import { createUser, oneTimePassword, resetPassword, updateUser, UserExistsError, userView, type TUserView } from './users';

// An admin's changes to staff users, each in the audit log (the user's id and e-mail as its
// target, a role change as from → to). Shared by the JSON routes and the users page's actions.

/** Adds a user: with a one-time password (returned once, never stored in clear) or for single sign-on only. */
export async function addUser(by: TStaff, input: { email: string; role: TRole; signIn: 'password' | 'sso' }): Promise<{ user: TUserView; password?: string }> {
  const password = input.signIn === 'password' ? oneTimePassword() : null;
  try {
    const user = await createUser(input.email, password, input.role, true);
    await recordAudit({ actor: by, action: 'user.create', target: [user.id, user.email], result: 'ok', detail: { role: user.role, signIn: input.signIn } });
    return password ? { user: userView(user), password } : { user: userView(user) };
  } catch (err) {
    await recordAudit({
      actor: by,
      action: 'user.create',
      target: [input.email.slice(0, 320)],
      result: err instanceof UserExistsError ? 'conflict' : auditResultOf(err),
    });
    if (err instanceof UserExistsError) throw new ApiError('conflict', err.message);
    throw err;
  }
}

/** Changes a role and/or deactivates; a deactivated user's sessions end at once. The last active admin stays. */
export async function changeUser(by: TStaff, id: string, patch: { role?: TRole; disabled?: boolean }): Promise<TUserView> {
  let changed;
  try {
    changed = await updateUser(id, patch);
  } catch (err) {
    await recordAudit({
      actor: by,
      action: 'user.update',
      target: [id],
      result: auditResultOf(err),
      detail: { role: patch.role ?? null, disabled: patch.disabled ?? null },
    });
    throw err;
  }
  if (!changed) throw new ApiError('not_found', 'No such user.');
  const { before, after } = changed;
  const detail: Record<string, string | boolean> = {};
  if (before.role !== after.role) detail.role = `${before.role} → ${after.role}`;
  if ((before.disabledAt === null) !== (after.disabledAt === null)) detail.disabled = after.disabledAt !== null;
  await recordAudit({ actor: by, action: 'user.update', target: [after.id, after.email], result: 'ok', detail });
  return userView(after);
}

/** A new one-time password (returned once); the user's sessions end. */
export async function resetUserPassword(by: TStaff, id: string): Promise<{ user: TUserView; password: string }> {
  const done = await resetPassword(id);
  if (!done) throw new ApiError('not_found', 'No such user.');
  await recordAudit({ actor: by, action: 'user.password.reset', target: [done.user.id, done.user.email], result: 'ok' });
  return { user: userView(done.user), password: done.password };
}
