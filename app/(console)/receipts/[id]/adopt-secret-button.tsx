'use client';

import { Can } from '@/components/console/role';
import { useState, useTransition } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button } from '@/components/console/form';
import { adoptWebhookSecretAction } from '../actions';

// On success the action refreshes the page, which then says the receiver holds the webhook's secret
// (and no longer shows this button); only a failure is shown here.
function AdoptSecretButtonForRole({ receiptId }: { receiptId: number }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const run = () =>
    start(async () => {
      setError(null);
      const r = await adoptWebhookSecretAction(receiptId);
      if (!r.ok) setError(r.error);
    });
  return (
    <div className="space-y-2">
      <Button size="sm" onClick={run} disabled={pending}>
        {pending ? 'Saving…' : 'Use this webhook’s secret on the receiver'}
      </Button>
      {error ? <ErrorCallout error={error} title="The secret was not changed" /> : null}
    </div>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function AdoptSecretButton(props: Parameters<typeof AdoptSecretButtonForRole>[0]) {
  return (
    <Can min="operator">
      <AdoptSecretButtonForRole {...props} />
    </Can>
  );
}
