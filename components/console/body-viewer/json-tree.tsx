'use client';

import { useState, type ReactNode } from 'react';
import type { TDiffKind } from './body-diff';
import { isRecord, pathString, RawNumber, type TJson, type TSegment } from './json-body';
import { plural } from '@/lib/console/format';

// A JSON value as a tree: objects and arrays fold (a button each, aria-expanded), keys copy their
// path when pressed, values are coloured by type, and differences (sent vs received) are marked.

export type TTreeProps = {
  value: TJson;
  /** Levels open at first (0: everything folded). */
  openDepth: number;
  marks?: Map<string, TDiffKind>;
  onCopyPath: (path: string) => void;
};

const MARK_CLASS: Record<TDiffKind, string> = {
  changed: 'bg-amber-400/20 outline outline-1 outline-amber-400/60',
  added: 'bg-emerald-400/20 outline outline-1 outline-emerald-400/60',
  removed: 'bg-rose-400/25 outline outline-1 outline-rose-400/60',
};
const MARK_SIGN: Record<TDiffKind, string> = { changed: '~', added: '+', removed: '−' };

export function JsonTree(props: TTreeProps) {
  return (
    <div className="font-mono text-xs leading-5 text-slate-100" data-testid="json-tree">
      <Node {...props} at={[]} depth={0} last />
    </div>
  );
}

function Scalar({ value }: { value: TJson }) {
  if (value === null) return <span className="text-fuchsia-300">null</span>;
  if (typeof value === 'boolean') return <span className="text-fuchsia-300">{String(value)}</span>;
  if (typeof value === 'number' || value instanceof RawNumber) return <span className="text-sky-300">{String(value)}</span>;
  return <span className="break-all text-emerald-300">{JSON.stringify(value)}</span>;
}

function Key({ at, onCopyPath }: { at: TSegment[]; onCopyPath: (path: string) => void }) {
  const seg = at[at.length - 1];
  if (seg === undefined) return null;
  const path = pathString(at);
  return (
    <>
      <button
        type="button"
        className="rounded-sm text-indigo-200 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-amber-300"
        title={`Copy the path ${path}`}
        aria-label={`${typeof seg === 'number' ? `item ${seg}` : seg}: copy the path ${path}`}
        data-path={path}
        onClick={() => onCopyPath(path)}
      >
        {typeof seg === 'number' ? seg : JSON.stringify(seg)}
      </button>
      <span className="text-slate-400">: </span>
    </>
  );
}

type TNodeProps = TTreeProps & { at: TSegment[]; depth: number; last: boolean };

function Node({ value, at, depth, last, openDepth, marks, onCopyPath }: TNodeProps) {
  const container = Array.isArray(value) || isRecord(value);
  const [open, setOpen] = useState(depth < openDepth);
  const path = pathString(at);
  const mark = marks?.get(path);
  const comma = last ? null : <span className="text-slate-400">,</span>;
  const rowClass = `rounded-sm ${mark ? MARK_CLASS[mark] : ''}`;
  const sign = mark ? <span className="sr-only">{` (${mark}) `}</span> : null;
  const markAttrs = mark ? { 'data-diff': mark, title: `${mark} (${MARK_SIGN[mark]})` } : {};
  if (!container) {
    return (
      <div className={`pl-4 ${rowClass}`} data-node={path} {...markAttrs}>
        {sign}
        <Key at={at} onCopyPath={onCopyPath} />
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const entries: [TSegment, TJson][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value as Record<string, TJson>);
  const [openBr, closeBr] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const count = Array.isArray(value) ? plural(entries.length, 'item') : plural(entries.length, 'key');
  const toggle: ReactNode = entries.length ? (
    <button
      type="button"
      aria-expanded={open}
      aria-label={`${open ? 'Fold' : 'Unfold'} ${path || 'the body'} (${count})`}
      onClick={() => setOpen((o) => !o)}
      className="-ml-4 inline-block w-4 rounded-sm text-center text-slate-400 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-amber-300"
    >
      {open ? '▾' : '▸'}
    </button>
  ) : null;
  return (
    <div className={`pl-4 ${rowClass}`} data-node={path} {...markAttrs}>
      {toggle}
      {sign}
      <Key at={at} onCopyPath={onCopyPath} />
      <span className="text-slate-400">{openBr}</span>
      {!open || !entries.length ? (
        <>
          {entries.length ? (
            <button type="button" onClick={() => setOpen(true)} className="px-1 text-slate-500 hover:text-slate-200" tabIndex={-1} aria-hidden>
              … {count}
            </button>
          ) : null}
          <span className="text-slate-400">{closeBr}</span>
          {comma}
        </>
      ) : (
        <>
          {entries.map(([k, v], i) => (
            <Node
              key={String(k)}
              value={v}
              at={[...at, k]}
              depth={depth + 1}
              last={i === entries.length - 1}
              openDepth={openDepth}
              marks={marks}
              onCopyPath={onCopyPath}
            />
          ))}
          <span className="text-slate-400">{closeBr}</span>
          {comma}
        </>
      )}
    </div>
  );
}
