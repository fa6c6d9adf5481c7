'use client';

import { useState } from 'react';

// A response body or error text, wrapped (never a sideways scroll) and cut to about six lines
// until "more" is pressed.

const COLLAPSED_LINES = 6;
const CHARS_PER_LINE = 100;

export function CollapsibleText({ text, label, tone = 'plain' }: { text: string; label?: string; tone?: 'plain' | 'error' }) {
  const [open, setOpen] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > COLLAPSED_LINES || text.length > COLLAPSED_LINES * CHARS_PER_LINE;
  const colors = tone === 'error' ? 'border-rose-200 bg-rose-50 text-rose-900' : 'border-slate-200 bg-slate-50 text-slate-800';
  return (
    <div className="min-w-0">
      <pre
        aria-label={label}
        className={`whitespace-pre-wrap break-all rounded border px-2 py-1 font-mono text-xs leading-5 ${colors} ${long && !open ? 'max-h-[7.5rem] overflow-hidden' : ''}`}
      >
        {text || <span className="text-slate-500">(empty)</span>}
      </pre>
      {long ? (
        <button type="button" onClick={() => setOpen((o) => !o)} className="mt-0.5 text-xs font-medium text-indigo-700 hover:underline" aria-expanded={open}>
          {open ? 'less' : 'more'}
        </button>
      ) : null}
    </div>
  );
}
