'use client';

import type { FetchJsonError } from '@/components/console/fetch-json';
import { LivePauseButton, LiveStatusText } from '@/components/console/live-pause';

// Whether the timeline is live: a pulsing dot while it polls, paused by the reader, or why it
// paused (an expired session gets a login link that comes back here). Only the state is in the
// live region ("Live", "Paused", the error), so a screen reader hears changes of state, not the
// refresh time every second.

export function LiveIndicator({ fetching, updatedAt, error, paused }: { fetching: boolean; updatedAt: number; error: FetchJsonError | null; paused: boolean }) {
  if (error && !paused) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-xs text-amber-800" data-testid="live-indicator" data-state="error">
        <span className="size-2 rounded-full bg-amber-500" aria-hidden />
        <span role="status">
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
        </span>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500" data-testid="live-indicator" data-state={paused ? 'paused' : 'live'}>
      <span className="relative flex size-2" aria-hidden>
        <span
          className={`absolute inline-flex size-full rounded-full ${paused ? 'bg-slate-300' : 'bg-emerald-400'} ${fetching && !paused ? 'animate-ping' : ''} opacity-75`}
        />
        <span className={`relative inline-flex size-2 rounded-full ${paused ? 'bg-slate-400' : 'bg-emerald-500'}`} />
      </span>
      <LiveStatusText paused={paused} every="every second" updatedAt={updatedAt} />
      <LivePauseButton />
    </div>
  );
}
