'use client';

import { useState } from 'react';
import { copyText } from './copy-text';

export function CopyButton({ value, label = 'Copy', className = '' }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button
      type="button"
      onClick={copy}
      className={`inline-flex items-center rounded border border-slate-300 bg-surface px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 ${className}`}
    >
      {copied ? 'Copied ✓' : label}
    </button>
  );
}

/** A value in monospace with a copy button beside it. */
export function CopyField({ value, label }: { value: string; label?: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-2">
      <code className="min-w-0 break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
