'use client';

import { useState } from 'react';
import { buttonClass } from './button-class';
import { Can } from './role';

// Download links for an export, with the "include donor details" choice (off by default: names,
// e-mails, phones and notes are redacted). Plain links: the browser streams the file to disk.

export function ExportLinks({
  base,
  query = {},
  formats,
  testId,
}: {
  base: string;
  query?: Record<string, string | undefined>;
  formats: { label: string; params?: Record<string, string> }[];
  testId?: string;
}) {
  const [includeDonor, setIncludeDonor] = useState(false);
  const href = (params: Record<string, string> = {}) => {
    const sp = new URLSearchParams(Object.entries({ ...query, ...params }).filter((e): e is [string, string] => !!e[1]));
    if (includeDonor) sp.set('includeDonor', '1');
    const s = sp.toString();
    return s ? `${base}?${s}` : base;
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid={testId}>
      {formats.map((f) => (
        <a key={f.label} href={href(f.params)} download className={buttonClass('secondary', 'sm')}>
          {f.label}
        </a>
      ))}
      {/* Donor details leave only with an operator (audited); a viewer's exports are always masked. */}
      <Can min="operator">
        <label className="flex items-center gap-1 text-xs text-slate-600">
          <input type="checkbox" checked={includeDonor} onChange={(e) => setIncludeDonor(e.target.checked)} />
          include donor details
        </label>
      </Can>
    </div>
  );
}
