'use client';

import { formatUtc } from '@/components/console/timestamp';
import type { FetchJsonError } from '@/components/console/fetch-json';

// Whether the timeline is live: a pulsing dot while it polls, or why it paused (an expired session
// gets a login link that comes back here).

export function LiveIndicator({ fetching, updatedAt, error }: { fetching: boolean; updatedAt: number; error: FetchJsonError | null }) {
  if (error) {
    return (
      <div role="status" className="flex flex-wrap items-center gap-2 text-xs text-amber-800" data-testid="live-indicator" data-state="error">
        <span className="size-2 rounded-full bg-amber-500" aria-hidden />
        {error.status === 401 ? (
          <>
            Your session has expired.{' '}
            <a className="font-medium underline" href={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>
              Log in again
            </a>
          </>
        ) : (
          <>
            Live updates paused: {error.message}
            {error.requestId ? <span className="break-all font-mono">(request {error.requestId})</span> : null} — retrying every second.
          </>
        )}
      </div>
    );
  }
  return (
    <div role="status" className="flex items-center gap-2 text-xs text-slate-500" data-testid="live-indicator" data-state="live">
      <span className="relative flex size-2" aria-hidden>
        <span className={`absolute inline-flex size-full rounded-full bg-emerald-400 ${fetching ? 'animate-ping' : ''} opacity-75`} />
        <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
      </span>
      Live — refreshed every second{updatedAt ? `, last at ${formatUtc(new Date(updatedAt))} UTC` : ''}
    </div>
  );
}
