'use client';

import { useSyncExternalStore } from 'react';

// Live updates can be paused (issue 41): to read a timeline that would otherwise move under the
// reader, or to keep a screen reader quiet. One switch for the tab: every live view (the timeline,
// a webhook's health, the health home) stops polling while it is on, and says so.

let paused = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setLivePaused(value: boolean): void {
  paused = value;
  for (const l of listeners) l();
}

export function useLivePaused(): boolean {
  return useSyncExternalStore(subscribe, () => paused, () => false);
}

/** "Pause" / "Resume" beside a live status. */
export function LivePauseButton() {
  const isPaused = useLivePaused();
  return (
    <button
      type="button"
      onClick={() => setLivePaused(!isPaused)}
      aria-pressed={isPaused}
      data-testid="live-pause"
      className="rounded border border-slate-300 bg-surface px-1.5 py-0 text-xs font-medium text-slate-700 hover:bg-slate-50"
    >
      {isPaused ? 'Resume live updates' : 'Pause live updates'}
    </button>
  );
}
