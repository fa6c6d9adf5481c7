'use client';

import { formatUtc } from '@/components/console/timestamp';
import type { FetchJsonError } from '@/components/console/fetch-json';

/** Whether the health figures are live: when they were last read, or why polling paused. */
export function HealthLiveStatus({ fetching, updatedAt, error }: { fetching: boolean; updatedAt: number; error: FetchJsonError | null }) {
  if (error) {
    return (
      <p role="status" className="text-xs text-amber-800" data-testid="health-live" data-state="error">
        Live updates paused: {error.message}
        {error.requestId ? <span className="break-all font-mono"> (request {error.requestId})</span> : null} — retrying every 5 s.
      </p>
    );
  }
  return (
    <p role="status" className="flex items-center gap-2 text-xs text-slate-500" data-testid="health-live" data-state="live">
      <span className={`size-2 rounded-full bg-emerald-500 ${fetching ? 'animate-pulse' : ''}`} aria-hidden />
      Live — refreshed every 5 s{updatedAt ? `, last at ${formatUtc(new Date(updatedAt))} UTC` : ''}
    </p>
  );
}
