import 'server-only';
import { eq } from 'drizzle-orm';
import { hashSecret, verifySecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { releaseAttempt, reserveAttempt } from '@/lib/db/fixed-window';
import { loginFailures, users } from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';
import { auditResultOf, recordAudit } from '../audit/record-audit';
import { LOGIN_WINDOW_MINUTES, tooManyMessage } from './login';
import { endOtherSessions, type TSignedIn } from './session';
import { checkPassword, getUser } from './users';

// A staff member changes their own password: the current one proves it is them (a session left
// open on a shared machine is not enough), the new one follows the same rules as any password
// (users.ts: 8 to 1024 characters) and differs from the current one. A one-time password is
// changed this way at the first sign-in. Guesses at the current password are limited like logins
// (5 in 15 minutes per user). On success every other session of the user ends, this one stays, and
// the audit log has it.

export const MAX_CURRENT_PASSWORD_FAILURES = 5;

export type TPasswordChange = { currentPassword: string; newPassword: string };

export async function changeOwnPassword(staff: TSignedIn, input: TPasswordChange, source: string): Promise<void> {
  try {
    await change(staff, input);
  } catch (err) {
    await recordAudit({ actor: staff, action: 'user.password.change', target: [staff.userId, staff.email], result: auditResultOf(err), source });
    throw err;
  }
  await endOtherSessions(staff.userId);
  await recordAudit({
    actor: staff,
    action: 'user.password.change',
    target: [staff.userId, staff.email],
    result: 'ok',
    detail: { wasOneTime: staff.mustChangePassword },
    source,
  });
}

async function change(staff: TSignedIn, { currentPassword, newPassword }: TPasswordChange): Promise<void> {
  const user = await getUser(staff.userId);
  if (!user?.passwordHash) {
    throw new ApiError('conflict', 'You sign in with single sign-on only: your password is kept by your identity provider, not by this console.');
  }
  if (!currentPassword)
    throw new ApiError('bad_request', 'Enter your current password.', { errors: [{ path: 'currentPassword', message: 'Enter your current password.' }] });
  try {
    checkPassword(newPassword);
  } catch (err) {
    throw new ApiError('bad_request', (err as Error).message, { errors: [{ path: 'newPassword', message: (err as Error).message }] });
  }
  const limit = { key: `password-change:${user.id}`, max: MAX_CURRENT_PASSWORD_FAILURES };
  const wait = await reserveAttempt(loginFailures, [limit], LOGIN_WINDOW_MINUTES * 60_000);
  if (wait > 0) throw new ApiError('rate_limited', tooManyMessage(wait), { headers: { 'retry-after': String(wait) } });
  if (currentPassword.length > 1024 || !(await verifySecret(currentPassword, user.passwordHash))) {
    throw new ApiError('bad_request', 'The current password is wrong.', { errors: [{ path: 'currentPassword', message: 'The current password is wrong.' }] });
  }
  await releaseAttempt(loginFailures, { clear: [limit.key], giveBack: [] });
  if (newPassword === currentPassword) {
    const message = user.mustChangePassword
      ? 'Choose a password of your own, not the one-time password.'
      : 'The new password is the current one: choose another.';
    throw new ApiError('bad_request', message, { errors: [{ path: 'newPassword', message }] });
  }
  const db = await getDb();
  await db
    .update(users)
    .set({ passwordHash: await hashSecret(newPassword), mustChangePassword: false })
    .where(eq(users.id, user.id));
}
