'use server';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { attemptLogin } from './login';
import { sourceAddress } from '@/lib/http/source-address';
import { safeNext } from './safe-next';
import { changePasswordHref, endSession, startSession } from './session';

// Server actions of the login page and the sign-out button.

export type TLoginState = { error?: string };

export async function loginAction(_prev: TLoginState, formData: FormData): Promise<TLoginState> {
  const field = (name: string) => {
    const v = formData.get(name);
    return typeof v === 'string' ? v : '';
  };
  const source = sourceAddress((await headers()).get('x-forwarded-for'));
  const result = await attemptLogin({ email: field('email'), password: field('password'), source });
  if (!result.ok) return { error: result.error };
  await startSession(result.userId);
  // A one-time password is changed before anything else (every guard would send them there anyway).
  redirect(result.mustChangePassword ? changePasswordHref(field('next')) : safeNext(field('next')));
}

export async function logoutAction(): Promise<void> {
  await endSession();
  redirect('/login');
}
