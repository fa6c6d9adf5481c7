import type { Metadata } from 'next';
import Link from 'next/link';
import { logoutAction } from '@/lib/console/staff/auth-actions';
import { loginOptions } from '@/lib/console/staff/oidc-config';
import { safeNext } from '@/lib/console/staff/safe-next';
import { requireSignedIn } from '@/lib/console/staff/session';
import { MIN_PASSWORD_LENGTH } from '@/lib/console/staff/users';
import type { TPageProps } from '@/lib/http/page-props';
import { ChangePasswordForm } from './change-password-form';

export const metadata: Metadata = { title: 'Change password' };

// A staff member's own password. After a one-time password (an admin added them or reset theirs)
// this is the only page they reach until it is changed (every guard sends them here); a user who
// signs in only by single sign-on has no password here and is told where it is kept.
export default async function ChangePasswordPage({ searchParams }: TPageProps) {
  const query = await searchParams;
  const next = safeNext(query.next);
  const staff = await requireSignedIn(`/account/password${query.next ? `?next=${encodeURIComponent(next)}` : ''}`);
  const sso = loginOptions().sso;
  return (
    <main data-surface="dark" className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-indigo-950 px-4 py-8">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-3 text-white">
          <span className="grid size-10 place-items-center rounded-lg bg-indigo-500 text-sm font-bold shadow-lg shadow-indigo-500/30">GC</span>
          <p className="text-lg font-semibold leading-tight">Giving Connect Console</p>
        </div>
        <div className="rounded-xl bg-surface p-6 shadow-2xl ring-1 ring-black/5">
          <h1 className="text-base font-semibold text-slate-900">{staff.mustChangePassword ? 'Choose your password' : 'Change your password'}</h1>
          <p className="mb-5 mt-1 text-sm text-slate-500 [overflow-wrap:anywhere]" data-testid="password-intro">
            {!staff.hasPassword
              ? `You (${staff.email}) sign in with single sign-on${sso ? ` through ${sso.label}` : ''}: your password is kept by your identity provider, not by this console.`
              : staff.mustChangePassword
                ? `You (${staff.email}) signed in with a one-time password. Choose your own before going on: nothing else opens until then.`
                : `Signed in as ${staff.email}. Your other sessions end when it changes.`}
          </p>
          {staff.hasPassword ? <ChangePasswordForm next={next} oneTime={staff.mustChangePassword} email={staff.email} minLength={MIN_PASSWORD_LENGTH} /> : null}
          <div className="mt-5 flex items-center justify-between text-xs">
            {staff.mustChangePassword ? (
              <span />
            ) : (
              <Link href={next} className="font-medium text-indigo-700 hover:underline">
                Back to the console
              </Link>
            )}
            <form action={logoutAction}>
              <button type="submit" className="font-medium text-slate-600 hover:underline">
                Log out
              </button>
            </form>
          </div>
        </div>
      </div>
    </main>
  );
}
