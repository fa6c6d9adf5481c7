'use client';

import { useEffect, useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button, Field, Input } from '@/components/console/form';
import { Card } from '@/components/console/page-header';
import type { TRecoverRun } from '@/lib/console/connect-api/schemas';
import { previewRecoverAction, recoverProgressAction, startRecoverAction } from './recover-actions';
import { webhookQueriesKey } from './use-timeline';

// "Recover failed messages": a window (since, until; local time in the inputs, UTC to the API),
// a preview of how many failed messages it holds, a confirm step, then the run's progress until
// every message was re-sent once. Hidden when the service has no recover extension.

const POLL_MS = 1000;
const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the value of a datetime-local input (local time, minutes). */
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

type TStep = { kind: 'form' } | { kind: 'confirm'; count: number; window: { since: string; until?: string } } | { kind: 'running'; run: TRecoverRun };

export function RecoverPanel({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [step, setStep] = useState<TStep>({ kind: 'form' });
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [busy, startBusy] = useTransition();

  const fieldError = (name: string) => error?.errors?.find((e) => e.path === name)?.message;

  const openPanel = () => {
    setSince(localInput(new Date(Date.now() - 24 * 3600_000)));
    setUntil('');
    setStep({ kind: 'form' });
    setError(null);
    setOpen(true);
  };

  const preview = () =>
    startBusy(async () => {
      setError(null);
      const window = { since: toIso(since) ?? '', until: toIso(until) };
      const r = await previewRecoverAction(webhookId, window);
      if (r.ok && r.data) setStep({ kind: 'confirm', count: r.data.messages, window: { since: r.data.since, until: window.until } });
      else if (!r.ok && r.unsupported) setHidden(true);
      else if (!r.ok) setError(r.error);
    });

  const confirm = (window: { since: string; until?: string }) =>
    startBusy(async () => {
      setError(null);
      const r = await startRecoverAction(webhookId, window);
      if (r.ok && r.data) setStep({ kind: 'running', run: r.data });
      else if (!r.ok) setError(r.error);
    });

  const run = step.kind === 'running' ? step.run : null;
  useEffect(() => {
    if (!run) return;
    if (run.status === 'done') {
      void queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
      return;
    }
    const timer = setTimeout(async () => {
      const r = await recoverProgressAction(webhookId, run.id);
      if (r.ok && r.data) setStep({ kind: 'running', run: r.data });
      else if (!r.ok) setError(r.error);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run, queryClient, webhookId]);

  if (hidden) return null;
  if (!open) {
    return (
      <div className="flex justify-end">
        <Button onClick={openPanel} data-testid="recover-open">
          Recover failed messages
        </Button>
      </div>
    );
  }
  return (
    <Card title="Recover failed messages" actions={<Button size="sm" onClick={() => setOpen(false)}>Close</Button>}>
      <div className="space-y-3" data-testid="recover-panel">
        <p className="text-sm text-slate-600">
          Re-sends, once each, every message of this window whose delivery to this webhook failed (all retries used). At most 14 days.
        </p>
        {step.kind === 'form' ? (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Since" htmlFor="recover-since" error={fieldError('since')}>
              <Input id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} invalid={!!fieldError('since')} />
            </Field>
            <Field label="Until (optional)" htmlFor="recover-until" error={fieldError('until')} hint="empty: now">
              <Input id="recover-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} invalid={!!fieldError('until')} />
            </Field>
            <Button variant="primary" onClick={preview} disabled={busy || !since}>
              {busy ? 'Counting…' : 'Preview'}
            </Button>
          </div>
        ) : null}
        {step.kind === 'confirm' ? (
          <div className="flex flex-wrap items-center gap-3" data-testid="recover-preview">
            <p className="text-sm text-slate-800">
              {step.count === 0 ? 'No failed messages in this window: nothing to re-send.' : `${step.count} failed message${step.count === 1 ? '' : 's'} will be re-sent.`}
            </p>
            {step.count > 0 ? (
              <Button variant="danger" onClick={() => confirm(step.window)} disabled={busy}>
                {busy ? 'Starting…' : `Re-send ${step.count}`}
              </Button>
            ) : null}
            <Button onClick={() => setStep({ kind: 'form' })} disabled={busy}>
              Back
            </Button>
          </div>
        ) : null}
        {run ? <RecoverProgress run={run} /> : null}
        {error && !fieldError('since') && !fieldError('until') ? <ErrorCallout error={error} title="Recover failed" /> : null}
      </div>
    </Card>
  );
}

function RecoverProgress({ run }: { run: TRecoverRun }) {
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
    </div>
  );
}
