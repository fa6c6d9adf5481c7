'use client';

import type { FetchJsonError } from '@/components/console/fetch-json';
import { LivePauseButton, LiveStatusText, useLivePaused } from '@/components/console/live-pause';

/** Whether the health figures are live: when they were last read, or why polling paused. Only the state is announced. */
export function HealthLiveStatus({ fetching, updatedAt, error }: { fetching: boolean; updatedAt: number; error: FetchJsonError | null }) {
  const paused = useLivePaused();
  if (error && !paused) {
    return (
      <p role="status" className="text-xs text-amber-800" data-testid="health-live" data-state="error">
        Live updates paused: {error.message}
        {error.requestId ? <span className="break-all font-mono"> (request {error.requestId})</span> : null} — retrying every 5 s.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500" data-testid="health-live" data-state={paused ? 'paused' : 'live'}>
      <span className={`size-2 rounded-full ${paused ? 'bg-slate-400' : 'bg-emerald-500'} ${fetching && !paused ? 'animate-pulse' : ''}`} aria-hidden />
      <LiveStatusText paused={paused} every="every 5 s" updatedAt={updatedAt} />
      <LivePauseButton />
    </div>
  );
}
