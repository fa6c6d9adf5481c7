'use client';

import { HEALTH_WINDOWS, type THealthWindow } from '@/lib/console/health/health-types';

/** 1h / 24h / 7d as a segmented control. */
export function WindowSwitcher({ value, onChange }: { value: THealthWindow; onChange: (w: THealthWindow) => void }) {
  return (
    <div role="group" aria-label="Window" className="inline-flex rounded-md shadow-sm ring-1 ring-slate-300">
      {HEALTH_WINDOWS.map((w, i) => (
        <button
          key={w}
          type="button"
          aria-pressed={w === value}
          onClick={() => onChange(w)}
          className={`px-3 py-1.5 text-xs font-medium ${i === 0 ? 'rounded-l-md' : ''} ${i === HEALTH_WINDOWS.length - 1 ? 'rounded-r-md' : ''} ${
            w === value ? 'bg-indigo-600 text-white' : 'bg-surface text-slate-700 hover:bg-slate-50'
          }`}
        >
          {w}
        </button>
      ))}
    </div>
  );
}
