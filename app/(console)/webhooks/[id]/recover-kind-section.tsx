'use client';

import { useState, useTransition, type ReactNode } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import type { TActionResult, TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button } from '@/components/console/form';

// One kind's section of a webhook's recover card, drawn from its entry in RECOVER_KINDS
// (recover-kinds.tsx): what it re-sends, the window's count, one button, a confirmation naming the
// count, then the run's result. The card owns the window and the counts; this owns the run.

export type TKindCount = { kind: 'count'; messages: number; note?: ReactNode } | { kind: 'unsupported' } | { kind: 'error'; error: TErrorInfo };

/** The window a preview counted, as the API takes it (ISO times). */
export type TRecoverWindow = { since: string; until?: string };

/** What a kind's run and result are given: the webhook, the window counted, and a way to refresh the timeline after. */
export type TKindContext = { webhookId: string; window: TRecoverWindow; refreshTimeline: () => void };

/** One kind, declared once as data (methods, so a table can hold kinds of different results). */
export type TRecoverKindSpec<T> = {
  /** Its count's key; its test id is `recover-${key}`. */
  key: 'failed' | 'retry' | 'resend';
  title: string;
  /** One sentence: which messages, and what the run does with them. */
  what: string;
  /** The count as a sentence, e.g. "2 failed messages will be re-sent." */
  counted(n: number): ReactNode;
  /** The button, e.g. "Re-send 2". */
  action(n: number): string;
  /** The question before it runs. */
  confirm(n: number): string;
  run(ctx: TKindContext): Promise<TActionResult<T>>;
  result(r: T, ctx: TKindContext): ReactNode;
};

type TRunState<T> = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'done'; result: T };

export function RecoverKindSection<T>({ spec, count, ctx }: { spec: TRecoverKindSpec<T>; count: TKindCount | null; ctx: TKindContext }) {
  const { key, title, what, counted, action, confirm } = spec;
  const testId = `recover-${key}`;
  const [state, setState] = useState<TRunState<T>>({ kind: 'idle' });
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [busy, startBusy] = useTransition();

  const start = () =>
    startBusy(async () => {
      setError(null);
      const r = await spec.run(ctx);
      if (r.ok && r.data !== undefined) setState({ kind: 'done', result: r.data });
      else if (!r.ok) {
        setError(r.error);
        setState({ kind: 'idle' });
      }
    });

  const n = count?.kind === 'count' ? count.messages : 0;
  return (
    <section className="flex min-w-0 flex-col gap-2 rounded-md border border-slate-200 p-3" data-testid={testId} aria-label={title}>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <p className="text-xs text-slate-600">{what}</p>
      {count === null ? <p className="text-sm text-slate-500">Preview to count.</p> : null}
      {count?.kind === 'unsupported' ? <p className="text-sm text-slate-500">This service does not offer it.</p> : null}
      {count?.kind === 'error' ? <ErrorCallout error={count.error} title="Could not count" /> : null}
      {count?.kind === 'count' ? (
        <div className="space-y-2" data-testid={`${testId}-count`} data-count={count.messages}>
          <p className="text-sm text-slate-800">{counted(count.messages)}</p>
          {count.note ? <p className="text-xs text-slate-500">{count.note}</p> : null}
          {state.kind === 'idle' && n > 0 ? (
            <Button variant="danger" onClick={() => setState({ kind: 'confirm' })} disabled={busy}>
              {busy ? 'Working…' : action(n)}
            </Button>
          ) : null}
          {state.kind === 'confirm' ? (
            <div className="space-y-2 rounded border border-amber-200 bg-amber-50 p-2" role="group" aria-label={`Confirm: ${title}`}>
              <p className="text-sm text-amber-900">{confirm(n)}</p>
              <div className="flex flex-wrap gap-2">
                <Button variant="danger" size="sm" onClick={start} disabled={busy}>
                  {busy ? 'Working…' : 'Confirm'}
                </Button>
                <Button size="sm" onClick={() => setState({ kind: 'idle' })} disabled={busy}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
      {state.kind === 'done' ? spec.result(state.result, ctx) : null}
      {error ? <ErrorCallout error={error} title={`${title}: failed`} /> : null}
    </section>
  );
}
