'use client';

import { useMemo, useState } from 'react';
import type { TDiffKind } from './body-diff';
import { parseBody, prettyJson } from './json-body';
import { JsonTree } from './json-tree';
import { copyText } from '../copy-text';

// A request or response body as support engineers read it (Stripe, Hookdeck, webhook.site do the
// same): JSON pretty-printed, foldable and coloured, a value's path copied by pressing its key, the
// body copied as shown or as received; raw text as it is when it is not JSON.

/** Bodies above this many characters open two levels deep rather than fully (a tree of 1 MiB is slow to draw). */
const BIG = 20_000;

const toolButton =
  'rounded border border-slate-300 bg-surface px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 aria-pressed:border-indigo-500 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-800';

export function BodyViewer({
  text,
  label = 'Body',
  maxHeight = 'max-h-96',
  marks,
  testId = 'body-viewer',
}: {
  text: string;
  label?: string;
  maxHeight?: string;
  marks?: Map<string, TDiffKind>;
  testId?: string;
}) {
  const parsed = useMemo(() => parseBody(text), [text]);
  const [raw, setRaw] = useState(false);
  // Expand/fold all: a new tree (its nodes take their first state from openDepth).
  const [tree, setTree] = useState({ generation: 0, openDepth: text.length > BIG ? 2 : Infinity });
  const [note, setNote] = useState('');
  const say = (message: string) => {
    setNote(message);
    window.setTimeout(() => setNote((n) => (n === message ? '' : n)), 2500);
  };
  const copy = async (what: string, value: string) => {
    await copyText(value);
    say(`Copied ${what}`);
  };
  const showRaw = raw || !parsed.json;
  return (
    <div className="min-w-0 space-y-1.5" data-testid={testId} data-json={parsed.json}>
      <div className="flex flex-wrap items-center gap-1.5" role="toolbar" aria-label="View and copy">
        {parsed.json ? (
          <>
            <button type="button" className={toolButton} aria-pressed={!raw} onClick={() => setRaw(false)}>
              Formatted
            </button>
            <button type="button" className={toolButton} aria-pressed={raw} onClick={() => setRaw(true)}>
              Raw
            </button>
            {!raw ? (
              <>
                <button type="button" className={toolButton} onClick={() => setTree((t) => ({ generation: t.generation + 1, openDepth: Infinity }))}>
                  Expand all
                </button>
                <button type="button" className={toolButton} onClick={() => setTree((t) => ({ generation: t.generation + 1, openDepth: 1 }))}>
                  Collapse all
                </button>
              </>
            ) : null}
          </>
        ) : (
          <span className="text-xs text-slate-500">{text ? 'Not JSON: shown as received' : ''}</span>
        )}
        <button type="button" className={toolButton} onClick={() => copy('the body', text)} disabled={!text}>
          Copy body
        </button>
        {parsed.json && !raw ? (
          <button type="button" className={toolButton} onClick={() => copy('the formatted body', prettyJson(parsed.value))}>
            Copy formatted
          </button>
        ) : null}
        <span role="status" className="text-xs text-emerald-700" data-testid="body-viewer-status">
          {note}
        </span>
      </div>
      <div
        aria-label={label}
        role="region"
        tabIndex={0}
        data-surface="dark"
        className={`${maxHeight} overflow-auto rounded-md border border-slate-200 bg-slate-950 p-3`}
      >
        {showRaw ? (
          <pre className="whitespace-pre-wrap break-all font-mono text-xs leading-relaxed text-slate-100">
            {text || <span className="text-slate-500">(empty)</span>}
          </pre>
        ) : parsed.json ? (
          <JsonTree
            key={tree.generation}
            value={parsed.value}
            openDepth={tree.openDepth}
            marks={marks}
            onCopyPath={(p) => copy(`the path ${p || '(the whole body)'}`, p)}
          />
        ) : null}
      </div>
    </div>
  );
}
