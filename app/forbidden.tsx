// The 403 page: a signed-in staff member opened a page (or ran an action) their role does not
// allow (forbidden() from lib/console/staff/session.ts requireRole). API paths answer problem+json instead.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { buttonClass } from '@/components/console/button-class';
import { leastRoleOfPage } from '@/lib/console/staff/page-role';
import { forbiddenPageMessage } from '@/lib/console/staff/roles';
import { getStaff } from '@/lib/console/staff/session';

export const metadata: Metadata = { title: 'Not allowed' };

export default async function Forbidden() {
  // Whom the page is for, from the route table's least role of the path (proxy.ts passes the path on).
  const min = leastRoleOfPage((await headers()).get('x-console-path') ?? '');
  const staff = await getStaff();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md rounded-xl bg-surface p-8 text-center shadow-sm ring-1 ring-slate-200" data-testid="forbidden">
        <span className="mx-auto grid size-10 place-items-center rounded-lg bg-indigo-500 text-sm font-bold text-white">GC</span>
        <p className="mt-5 font-mono text-sm font-semibold text-indigo-700">403</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight text-slate-900">Your role does not allow this</h1>
        <p className="mt-2 text-sm text-slate-600" data-testid="forbidden-why">
          {forbiddenPageMessage(staff?.role ?? null, min)} Ask an admin of this console to change your role if you need it.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Link href="/" className={buttonClass('primary')}>
            Health
          </Link>
          <Link href="/cases" className={buttonClass('secondary')}>
            Cases
          </Link>
        </div>
      </div>
    </main>
  );
}
