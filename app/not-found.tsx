// The 404 page for any path no route serves (API paths answer problem+json instead).
import type { Metadata } from 'next';
import Link from 'next/link';
import { buttonClass } from '@/components/console/button-class';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md rounded-xl bg-surface p-8 text-center shadow-sm ring-1 ring-slate-200">
        <span className="mx-auto grid size-10 place-items-center rounded-lg bg-indigo-500 text-sm font-bold text-white">GC</span>
        <p className="mt-5 font-mono text-sm font-semibold text-indigo-700">404</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">Nothing lives at this address. Check the link, or go back to the console.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Link href="/webhooks" className={buttonClass('primary')}>
            Webhooks
          </Link>
          <Link href="/receivers" className={buttonClass('secondary')}>
            Receivers
          </Link>
        </div>
      </div>
    </main>
  );
}
