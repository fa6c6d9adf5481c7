import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { buttonClass } from '@/components/console/button-class';
import { loginOptions } from '@/lib/console/staff/oidc-config';
import { ssoErrorMessage } from '@/lib/console/staff/oidc-errors';
import { DEFAULT_NEXT, safeNext } from '@/lib/console/staff/safe-next';
import { getStaff } from '@/lib/console/staff/session';
import { LoginForm } from './login-form';
import type { TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Sign in' };

// The password form, the single sign-on button, or both (lib/console/staff/oidc-config.ts). `?error=`
// is a code of a failed single sign-on, shown as its sentence; any other value shows nothing.
export default async function LoginPage({ searchParams }: TPageProps) {
  const query = await searchParams;
  const next = safeNext(query.next);
  if (await getStaff()) redirect(next);
  const options = loginOptions();
  const error = ssoErrorMessage(query.error, options.sso?.label);
  const ssoHref = `/auth/oidc/start${next === DEFAULT_NEXT ? '' : `?next=${encodeURIComponent(next)}`}`;
  return (
    <main data-surface="dark" className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-indigo-950 px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-3 text-white">
          <span className="grid size-10 place-items-center rounded-lg bg-indigo-500 text-sm font-bold shadow-lg shadow-indigo-500/30">GC</span>
          <div>
            <p className="text-lg font-semibold leading-tight">Giving Connect Console</p>
            <p className="text-xs text-slate-400">Webhook deliveries, receipts and Connects</p>
          </div>
        </div>
        <div className="rounded-xl bg-surface p-6 shadow-2xl ring-1 ring-black/5">
          <h1 className="text-base font-semibold text-slate-900">Sign in</h1>
          <p className="mb-5 mt-1 text-sm text-slate-500">
            {options.sso ? 'For support staff, with your company account.' : 'For support staff. Ask an admin for an account.'}
          </p>
          {error ? (
            <div role="alert" className="mb-4 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
              {error}
            </div>
          ) : null}
          {options.sso ? (
            <a href={ssoHref} className={`${buttonClass('primary')} w-full py-2`} data-testid="sso-sign-in">
              {`Sign in with ${options.sso.label}`}
            </a>
          ) : null}
          {options.sso && options.password ? (
            <div className="my-5 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-200" />
              or with a password
              <span className="h-px flex-1 bg-slate-200" />
            </div>
          ) : null}
          {options.password ? <LoginForm next={next} secondary={Boolean(options.sso)} /> : null}
        </div>
        <p className="mt-6 text-center text-xs text-slate-400">Sessions are sealed, httpOnly cookies. Repeated failures are rate-limited.</p>
      </div>
    </main>
  );
}
