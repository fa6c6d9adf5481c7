'use client';

import { useSyncExternalStore } from 'react';
import { formatUtc } from '@/lib/console/format';

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
  return useSyncExternalStore(
    subscribe,
    () => paused,
    () => false,
  );
}

/**
 * A live status's words: "Live — refreshed every 5 s, last at 2026-11-27 08:25:18 UTC", on a phone
 * "Live, last at 08:25:18 UTC" (one line at 320 px with its button). Only the state is a live region.
 */
export function LiveStatusText({ paused, every, updatedAt }: { paused: boolean; every: string; updatedAt: number }) {
  const [day, time] = updatedAt ? formatUtc(new Date(updatedAt)).split(' ') : [];
  return (
    <span>
      <span role="status">{paused ? 'Paused' : 'Live'}</span>
      <span className="max-sm:hidden"> — {paused ? 'not refreshed' : `refreshed ${every}`}</span>
      {updatedAt ? (
        <>
          , last at <span className="max-sm:hidden">{day} </span>
          {time} UTC
        </>
      ) : null}
    </span>
  );
}

/**
 * "Pause live" / "Resume live" beside a live status ("… live updates" on wider screens and to a screen
 * reader): never a bare "Pause", which a phone showed beside the webhook's own Pause and Resume.
 */
export function LivePauseButton() {
  const isPaused = useLivePaused();
  return (
    <button
      type="button"
      onClick={() => setLivePaused(!isPaused)}
      aria-pressed={isPaused}
      data-testid="live-pause"
      className="shrink-0 rounded border border-slate-300 bg-surface px-1.5 py-0 text-xs font-medium text-slate-700 hover:bg-slate-50"
    >
      {isPaused ? 'Resume' : 'Pause'} live
      <span className="max-sm:sr-only"> updates</span>
    </button>
  );
}
