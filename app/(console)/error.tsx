'use client';

// Last-resort boundary for the staff pages: API errors are normally caught in the page and shown inline.
import Link from 'next/link';
import { useEffect } from 'react';
import { buttonClass } from '@/components/console/button-class';

export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="mx-auto mt-10 max-w-xl rounded-lg border border-rose-200 bg-surface p-6 shadow-sm">
      <h1 className="text-base font-semibold text-rose-800">This page could not be shown</h1>
      <p className="mt-2 text-sm text-slate-700">
        Something failed while loading it — often the API is unreachable or answered unexpectedly. Try again; if it keeps failing, the server log has the
        details
        {digest ? (
          <>
            {' '}
            under reference <code className="rounded bg-slate-100 px-1 font-mono text-xs">{digest}</code>
          </>
        ) : null}
        .
      </p>
      <div className="mt-4 flex gap-2">
        <button type="button" onClick={() => retry()} className={buttonClass('primary')}>
          Try again
        </button>
        <Link href="/webhooks" className={buttonClass('secondary')}>
          Back to webhooks
        </Link>
      </div>
    </div>
  );
}
