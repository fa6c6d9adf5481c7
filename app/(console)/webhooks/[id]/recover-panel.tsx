'use client';

import { Can } from '@/components/console/role';
import { useCallback, useEffect, useState, useTransition, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TActionResult, TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button, Field, Input } from '@/components/console/form';
import { Card } from '@/components/console/page-header';
import { useFocusReturn } from '@/components/console/use-focus-return';
import type { TRecoverRun } from '@/lib/console/connect-api/schemas';
import {
  previewRecoverAction,
  previewResendDeliveredAction,
  previewRetryNowAction,
  recoverProgressAction,
  resendDeliveredAction,
  retryNowAction,
  startRecoverAction,
} from './recover-actions';
import { RecoverKind, type TKindCount } from './recover-kind';
import { formatUtcLabel } from '@/lib/format';
import { resendSummary } from '@/lib/console/recover/resend-summary';
import { webhookQueriesKey } from './use-timeline';

// A webhook's recover card: one window (since, until; local time in the inputs, UTC to the API),
// then three kinds side by side, each with the window's count, one button, a confirmation and its
// result: failed for good (the service's recover run, with its progress), waiting for a retry
// (retry now: the schedule resumes after), delivered but failed at this console's receiver (re-send).
// A kind the service does not offer says so; the card hides when it offers none.

const POLL_MS = 1000;
/** A Date as the value of a datetime-local input, in UTC as every time in the console (minutes). */
const localInput = (d: Date) => d.toISOString().slice(0, 16);
const toIso = (utc: string) => (utc ? new Date(`${utc.length === 16 ? `${utc}:00` : utc}Z`).toISOString() : undefined);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
// The console's one time format (UTC, lib/format.ts), here as everywhere.
const time = (iso: string) => formatUtcLabel(iso);

type TWindow = { since: string; until?: string };
type TCounts = { failed: TKindCount; retry: TKindCount; resend: TKindCount };

function countOf<T>(r: TActionResult<T>, messages: (d: T) => number, note?: (d: T) => ReactNode): TKindCount {
  if (r.ok && r.data !== undefined) return { kind: 'count', messages: messages(r.data), note: note?.(r.data) };
  if (!r.ok && r.unsupported) return { kind: 'unsupported' };
  return { kind: 'error', error: r.ok ? { message: 'No answer.' } : r.error };
}

function RecoverPanelForRole({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [previewed, setPreviewed] = useState<{ window: TWindow; counts: TCounts; at: number } | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [busy, startBusy] = useTransition();
  const opener = useFocusReturn<HTMLButtonElement>(open);

  const fieldError = (name: string) => error?.errors?.find((e) => e.path === name)?.message;
  const refreshTimeline = useCallback(() => void queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) }), [queryClient, webhookId]);

  const openPanel = () => {
    setSince(localInput(new Date(Date.now() - 24 * 3600_000)));
    setUntil('');
    setPreviewed(null);
    setError(null);
    setOpen(true);
  };

  const preview = () =>
    startBusy(async () => {
      setError(null);
      const asked = { since: toIso(since) ?? '', until: toIso(until) };
      const [failed, retry, resend] = await Promise.all([
        previewRecoverAction(webhookId, asked),
        previewRetryNowAction(webhookId, asked),
        previewResendDeliveredAction(webhookId, asked),
      ]);
      // The window is the same for the three: a field error of one is the form's.
      const invalid = [failed, retry, resend].find((r) => !r.ok && r.error.errors?.length);
      if (invalid && !invalid.ok) return setError(invalid.error);
      if (!failed.ok && failed.unsupported && !retry.ok && retry.unsupported) return setHidden(true);
      setPreviewed({
        window: asked,
        at: Date.now(),
        counts: {
          failed: countOf(failed, (d) => d.messages),
          retry: countOf(retry, (d) => d.messages),
          resend: countOf(
            resend,
            (d) => d.messages,
            (d) =>
              d.receiver === null
                ? "This webhook's URL is not one of this console's receivers: nothing to compare."
                : `Receiver: ${d.receiver.name}.${d.truncated ? ' More than this: run again for the rest.' : ''}${d.disabled ? ' The webhook is disabled: enable it before re-sending.' : ''}`,
          ),
        },
      });
    });

  if (hidden) return null;
  if (!open) {
    return (
      <div className="flex justify-end">
        <Button ref={opener} onClick={openPanel} data-testid="recover-open">
          Recover messages
        </Button>
      </div>
    );
  }
  const window = previewed?.window;
  return (
    <Card title="Recover messages" actions={<Button size="sm" onClick={() => setOpen(false)}>Close</Button>}>
      {/* Opened: focus on its first field; Escape (outside a running count) closes it. */}
      <div className="space-y-3" data-testid="recover-panel" onKeyDown={(e) => e.key === 'Escape' && !busy && setOpen(false)}>
        <p className="text-sm text-slate-600">
          Pick a window (at most 14 days), preview how many messages each kind holds, then run one. Every run is written to the audit log.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Since (UTC)" htmlFor="recover-since" error={fieldError('since')}>
            <Input autoFocus id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} invalid={!!fieldError('since')} />
          </Field>
          <Field label="Until (UTC, optional)" htmlFor="recover-until" error={fieldError('until')} hint="empty: now">
            <Input id="recover-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} invalid={!!fieldError('until')} />
          </Field>
          <Button variant="primary" onClick={preview} disabled={busy || !since}>
            {busy ? 'Counting…' : previewed ? 'Count again' : 'Preview'}
          </Button>
        </div>
        {error && !fieldError('since') && !fieldError('until') ? <p className="text-sm text-rose-700">{error.message}</p> : null}
        {previewed && window ? (
          <div className="grid gap-3 md:grid-cols-3" key={previewed.at} data-testid="recover-kinds">
            <RecoverKind<TRecoverRun>
              testId="recover-failed"
              title="Failed for good"
              what="Messages whose delivery to this webhook failed with every retry used: each is re-sent once."
              count={previewed.counts.failed}
              counted={(n) => <span data-testid="recover-preview">{n === 0 ? 'No failed messages in this window: nothing to re-send.' : `${plural(n, 'failed message')} will be re-sent.`}</span>}
              action={(n) => `Re-send ${n}`}
              confirm={(n) => `Re-send ${plural(n, 'failed message')} to this webhook now, once each?`}
              run={() => startRecoverAction(webhookId, window)}
              result={(run) => <RecoverProgress webhookId={webhookId} initial={run} onDone={refreshTimeline} />}
            />
            <RecoverKind
              testId="recover-retry"
              title="Waiting for a retry"
              what="Messages that failed and wait for their next scheduled retry: attempted now, and the schedule resumes after (a failure waits for the next retry)."
              count={previewed.counts.retry}
              counted={(n) => (n === 0 ? 'No message waits for a retry in this window.' : `${plural(n, 'message')} ${n === 1 ? 'waits' : 'wait'} for a retry.`)}
              action={(n) => `Retry ${n} now`}
              confirm={(n) => `Attempt ${plural(n, 'message')} now instead of at ${n === 1 ? 'its' : 'their'} next retry?`}
              run={async () => {
                const r = await retryNowAction(webhookId, window);
                if (r.ok) setTimeout(refreshTimeline, 2000);
                return r;
              }}
              result={(r) => (
                <p className="text-sm text-slate-700" role="status" data-testid="recover-retry-result">
                  {`${plural(r.messages, 'message')} made due at ${time(r.dueAt)}: each is attempted now; one that fails again waits for its next retry.`}
                </p>
              )}
            />
            <RecoverKind
              testId="recover-resend"
              title="Delivered, failed at the receiver"
              what="Messages the service counts as delivered whose arrival at this console's receiver failed signature verification or got an error answer: each is re-sent once."
              count={previewed.counts.resend}
              counted={(n) => (n === 0 ? 'No delivered message failed at the receiver in this window.' : `${plural(n, 'delivered message')} failed at the receiver.`)}
              action={(n) => `Re-send ${n} delivered`}
              confirm={(n) => `Re-send ${plural(n, 'message')} the service counts as delivered, once each? Fix the receiver first (e.g. its secret).`}
              run={async () => {
                const r = await resendDeliveredAction(webhookId, window);
                if (r.ok) refreshTimeline();
                return r;
              }}
              result={(run) => (
                <p className="text-sm text-slate-700" role="status" data-testid="recover-resend-result">
                  {resendSummary(run)}
                  <span className="block font-mono text-xs text-slate-400" data-testid="recover-run-id">
                    Run {run.id}
                  </span>
                </p>
              )}
            />
          </div>
        ) : null}
      </div>
    </Card>
  );
}

function RecoverProgress({ webhookId, initial, onDone }: { webhookId: string; initial: TRecoverRun; onDone: () => void }) {
  const [run, setRun] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (run.status === 'done') {
      onDone();
      return;
    }
    const timer = setTimeout(async () => {
      const r = await recoverProgressAction(webhookId, run.id);
      if (r.ok && r.data) setRun(r.data);
      else if (!r.ok) setError(r.error.message);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run, webhookId, onDone]);
  const sent = run.messages - run.remaining;
  const pct = run.messages === 0 ? 100 : Math.round((sent / run.messages) * 100);
  return (
    <div className="space-y-2" data-testid="recover-progress" data-status={run.status}>
      <div className="h-2 w-full overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={run.messages} aria-valuenow={sent}>
        <div className="h-full bg-emerald-500 transition-all" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-sm text-slate-700" role="status">
        {run.status === 'done' ? 'Done: ' : 'Re-sending: '}
        {sent} of {run.messages} re-sent · {run.succeeded} delivered · {run.failed} failed again
        <span className="ml-2 font-mono text-xs text-slate-400">{run.id}</span>
      </p>
      {error ? <p className="text-sm text-rose-700">{error}</p> : null}
    </div>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function RecoverPanel(props: Parameters<typeof RecoverPanelForRole>[0]) {
  return (
    <Can min="operator">
      <RecoverPanelForRole {...props} />
    </Can>
  );
}
