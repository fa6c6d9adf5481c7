'use client';

import { useMemo } from 'react';
import { compareBodies, diffMarks, type TDiff } from './body-diff';
import { BodyViewer } from './body-viewer';
import { shortJson } from './json-body';
import { plural } from '@/lib/console/format';

// A receipt's body beside the payload the service says it sent: "byte for byte the same", the same
// JSON in other bytes, or each difference by its path, marked in both trees.

const KIND_TEXT: Record<TDiff['kind'], string> = { changed: 'changed', added: 'only received', removed: 'only sent' };
const KIND_TONE: Record<TDiff['kind'], string> = {
  changed: 'bg-amber-100 text-amber-900',
  added: 'bg-emerald-100 text-emerald-900',
  removed: 'bg-rose-100 text-rose-900',
};

function Verdict({ tone, children }: { tone: 'green' | 'amber' | 'red'; children: React.ReactNode }) {
  const colors = {
    green: 'border-emerald-200 bg-emerald-50 text-emerald-900',
    amber: 'border-amber-200 bg-amber-50 text-amber-900',
    red: 'border-rose-200 bg-rose-50 text-rose-900',
  }[tone];
  return (
    <p className={`rounded-md border px-3 py-2 text-sm ${colors}`} data-testid="sent-vs-received-verdict">
      {children}
    </p>
  );
}

export function SentVsReceived({ sent, received }: { sent: string; received: string }) {
  const comparison = useMemo(() => compareBodies(sent, received), [sent, received]);
  const marks = useMemo(() => (comparison.verdict === 'different' ? diffMarks(comparison.diffs) : null), [comparison]);
  if (comparison.verdict === 'identical') {
    return (
      <div className="space-y-2" data-testid="sent-vs-received" data-verdict="identical">
        <Verdict tone="green">Byte for byte the same as the service sent.</Verdict>
        <BodyViewer text={received} label="Body received" />
      </div>
    );
  }
  return (
    <div className="space-y-3" data-testid="sent-vs-received" data-verdict={comparison.verdict}>
      {comparison.verdict === 'same-json' ? (
        <Verdict tone="amber">
          The same JSON as the service sent, in other bytes (spacing, key order or escapes): a signature over the bytes received does not match one over the
          bytes sent.
        </Verdict>
      ) : comparison.verdict === 'different-text' ? (
        <Verdict tone="red">
          Differs from what the service sent, from character {comparison.offset + 1} (line {comparison.line}, column {comparison.column}).
        </Verdict>
      ) : (
        <div className="space-y-1.5">
          <Verdict tone="red">Differs from what the service sent: {plural(comparison.diffs.length + comparison.more, 'value')}.</Verdict>
          <ul className="max-h-48 space-y-0.5 overflow-auto text-xs" data-testid="body-diffs" aria-label="Differences">
            {comparison.diffs.map((d) => (
              <li key={`${d.kind}:${d.path}`} className="flex flex-wrap items-baseline gap-x-2" data-diff={d.kind} data-path={d.path}>
                <span className={`rounded px-1.5 font-medium ${KIND_TONE[d.kind]}`}>{KIND_TEXT[d.kind]}</span>
                <code className="break-all font-mono text-slate-900">{d.path || '(the whole body)'}</code>
                <span className="break-all font-mono text-slate-600">
                  {d.kind === 'added' ? shortJson(d.received) : d.kind === 'removed' ? shortJson(d.sent) : `${shortJson(d.sent)} → ${shortJson(d.received)}`}
                </span>
              </li>
            ))}
            {comparison.more ? <li className="text-slate-500">and {comparison.more} more</li> : null}
          </ul>
        </div>
      )}
      <div className="grid min-w-0 grid-cols-1 gap-3 xl:grid-cols-2">
        <section className="min-w-0 space-y-1" aria-label="Sent by the service">
          <h3 className="text-xs font-semibold text-slate-600">Sent by the service ({new TextEncoder().encode(sent).length} bytes)</h3>
          <BodyViewer text={sent} label="Body sent" marks={marks?.sent} testId="body-sent" />
        </section>
        <section className="min-w-0 space-y-1" aria-label="Received and stored">
          <h3 className="text-xs font-semibold text-slate-600">Received and stored ({new TextEncoder().encode(received).length} bytes)</h3>
          <BodyViewer text={received} label="Body received" marks={marks?.received} testId="body-received" />
        </section>
      </div>
    </div>
  );
}
