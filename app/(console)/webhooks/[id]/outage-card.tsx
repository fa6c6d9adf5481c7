'use client';

import { useEffect, useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Can } from '@/components/console/role';
import { Callout } from '@/components/console/callout';
import { Button } from '@/components/console/form';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { describeGap } from '@/lib/console/recover/gap-words';
import type { TOutageView } from '@/lib/console/recover/load-outage';
import type { TGapRuns } from '@/lib/console/recover/recover-gap';
import { gapProgressAction, recoverGapAction } from './gap-actions';
import { webhookQueriesKey } from './use-timeline';
import { formatUtcMinute } from '@/lib/console/format';

// The webhook page's word on disabling: while it fails, when it will be disabled (the service's
// disablesAt) and how many messages wait; after an outage, the gap it left — the messages never
// sent to it while it was disabled and those that failed for good — with one action, "Recover all",
// whose count is the preview of both runs (replay-missing + recover), then their progress.

const POLL_MS = 1000;

function progressOf(runs: TGapRuns) {
  const list = [runs.replay, runs.recover].filter((r) => r !== null);
  const sum = (k: 'messages' | 'remaining' | 'succeeded' | 'failed') => list.reduce((a, r) => a + r[k], 0);
  return {
    queued: sum('messages'),
    remaining: sum('remaining'),
    succeeded: sum('succeeded'),
    failed: sum('failed'),
    done: list.every((r) => r.status === 'done'),
  };
}

function RecoverAll({ webhookId, total }: { webhookId: string; total: number }) {
  const [runs, setRuns] = useState<TGapRuns | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [pending, start] = useTransition();
  const queryClient = useQueryClient();
  const progress = runs ? progressOf(runs) : null;
  useEffect(() => {
    if (!runs || progress?.done) return;
    const timer = setTimeout(async () => {
      const r = await gapProgressAction(webhookId, { replay: runs.replay?.id ?? null, recover: runs.recover?.id ?? null });
      if (r.ok && r.data) setRuns(r.data);
      void queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [runs, progress?.done, webhookId, queryClient]);
  if (progress) {
    return (
      <p className="text-sm text-slate-700" data-testid="recover-all-progress" data-done={progress.done}>
        {progress.queued} queued ({runs?.replay?.messages ?? 0} never sent, {runs?.recover?.messages ?? 0} failed for good):{' '}
        {progress.done ? 'done' : `${progress.remaining} still to send`} — {progress.succeeded} delivered, {progress.failed} failed again
        {progress.done && progress.failed > 0 ? '; the failed ones can be recovered again below.' : ''}
      </p>
    );
  }
  const click = () =>
    start(async () => {
      const r = await recoverGapAction(webhookId);
      if (r.ok && r.data) setRuns(r.data);
      else if (!r.ok) setError(r.error);
    });
  return (
    <div className="space-y-2">
      <Button variant="primary" onClick={click} disabled={pending} data-testid="recover-all">
        {pending ? 'Queuing…' : `Recover all ${total}`}
      </Button>
      {error ? <p className="text-sm text-rose-700">{error.message}</p> : null}
    </div>
  );
}

export function OutageCard({ webhookId, view }: { webhookId: string; view: TOutageView }) {
  const { warning, gap, noun } = view;
  if (!warning && !gap) return null;
  const total = gap ? gap.missing + gap.failed : 0;
  return (
    <div className="space-y-3" data-testid="outage-card">
      {warning ? (
        <Callout tone={warning.percent >= 75 ? 'error' : 'warning'} title="About to be disabled">
          <span data-testid="disable-warning" data-percent={warning.percent}>
            Failing since {formatUtcMinute(warning.failingSince)} UTC: {warning.sentence}.
          </span>{' '}
          While it is disabled nothing is sent to it; after it is enabled again, “Recover all” sends what it missed.
        </Callout>
      ) : null}
      {gap ? (
        <Callout tone={gap.enabledAt && total > 0 ? 'warning' : 'info'} title={gap.enabledAt ? 'After its outage' : 'Disabled'}>
          <span className="block" data-testid="outage-gap" data-missing={gap.missing} data-failed={gap.failed}>
            {describeGap(gap, noun)}.
          </span>
          {gap.enabledAt && total > 0 ? (
            <span className="mt-2 block">
              <Can min="operator" otherwise={<span className="text-sm text-slate-600">An operator can send them again from here.</span>}>
                <RecoverAll webhookId={webhookId} total={total} />
              </Can>
            </span>
          ) : null}
        </Callout>
      ) : null}
    </div>
  );
}
