'use client';

import { useEffect, useState } from 'react';
import type { TRecoverRun } from '@/lib/console/connect-api/types';
import { recoverProgressAction } from './recover-actions';

// A recover run's progress, polled until it is done: a bar, the counts so far, then onDone once.

const POLL_MS = 1000;

export function RecoverProgress({ webhookId, initial, onDone }: { webhookId: string; initial: TRecoverRun; onDone: () => void }) {
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
        <span className="ml-2 font-mono text-xs text-slate-500">{run.id}</span>
      </p>
      {error ? <p className="text-sm text-rose-700">{error}</p> : null}
    </div>
  );
}
