'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { changeOwnPassword } from '@/lib/console/staff/change-password';
import { safeNext } from '@/lib/console/staff/safe-next';
import { requireSignedIn } from '@/lib/console/staff/session';
import { sourceAddress } from '@/lib/http/source-address';
import { actionErrorInfo, type TFormState } from '@/app/(console)/_lib/errors';

// The change-password page's action: any signed-in staff member, also one who must change a
// one-time password (that is what the page is for). After a one-time password, on to `next`.

export async function changePasswordAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const staff = await requireSignedIn('/account/password');
  const field = (name: string) => {
    const v = formData.get(name);
    return typeof v === 'string' ? v : '';
  };
  const nonce = (prev.nonce ?? 0) + 1;
  const [currentPassword, newPassword, repeat] = [field('currentPassword'), field('newPassword'), field('repeatPassword')];
  if (newPassword !== repeat) return { fieldErrors: { repeatPassword: 'The two new passwords differ.' }, nonce };
  try {
    await changeOwnPassword(staff, { currentPassword, newPassword }, sourceAddress((await headers()).get('x-forwarded-for')));
  } catch (err) {
    const error = actionErrorInfo(err);
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message]));
    return Object.keys(fieldErrors).length ? { fieldErrors, nonce } : { error, nonce };
  }
  if (staff.mustChangePassword) redirect(safeNext(field('next')));
  return { ok: true, notice: 'Your password is changed. Your other sessions have ended; this one goes on.', nonce };
}
