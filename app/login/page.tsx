import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { safeNext } from '@/lib/console/staff/safe-next';
import { getStaff } from '@/lib/console/staff/session';
import { LoginForm } from './login-form';
import type { TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: TPageProps) {
  const next = safeNext((await searchParams).next);
  if (await getStaff()) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-indigo-950 px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-3 text-white">
          <span className="grid size-10 place-items-center rounded-lg bg-indigo-500 text-sm font-bold shadow-lg shadow-indigo-500/30">GC</span>
          <div>
            <p className="text-lg font-semibold leading-tight">Giving Connect Console</p>
            <p className="text-xs text-slate-400">Webhook deliveries, receipts and Connects</p>
          </div>
        </div>
        <div className="rounded-xl bg-white p-6 shadow-2xl ring-1 ring-black/5">
          <h1 className="text-base font-semibold text-slate-900">Sign in</h1>
          <p className="mb-5 mt-1 text-sm text-slate-500">For support staff. Ask an admin for an account.</p>
          <LoginForm next={next} />
        </div>
        <p className="mt-6 text-center text-xs text-slate-500">Sessions are sealed, httpOnly cookies. Repeated failures are rate-limited.</p>
      </div>
    </main>
  );
}
