'use client';

import { useState, useTransition } from 'react';
import { ErrorCallout, type TErrorInfo } from '@/components/console/callout';
import { Button } from '@/components/console/form';
import { adoptWebhookSecretAction } from '../actions';

export function AdoptSecretButton({ receiptId }: { receiptId: number }) {
  const [pending, start] = useTransition();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const run = () =>
    start(async () => {
      setError(null);
      const r = await adoptWebhookSecretAction(receiptId);
      if (r.ok) setNotice(r.notice ?? 'Done.');
      else setError(r.error);
    });
  return (
    <div className="space-y-2">
      <Button size="sm" onClick={run} disabled={pending}>
        {pending ? 'Saving…' : 'Use this webhook’s secret on the receiver'}
      </Button>
      {notice ? <p className="text-xs text-emerald-700">{notice}</p> : null}
      {error ? <ErrorCallout error={error} title="The secret was not changed" /> : null}
    </div>
  );
}
