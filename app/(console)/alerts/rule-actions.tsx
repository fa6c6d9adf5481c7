'use client';

import { Can } from '@/components/console/role';
import { useState, useTransition } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button } from '@/components/console/form';
import { deleteAlertRuleAction, setAlertRuleEnabledAction } from './actions';

/** Enable/disable and delete (asked twice) for one rule row. */
function RuleActionsForRole({ id, name, enabled }: { id: string; name: string; enabled: boolean }) {
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const run = (fn: () => Promise<{ ok: boolean; error?: TErrorInfo }>) =>
    start(async () => {
      setError(null);
      const r = await fn();
      if (!r.ok && r.error) setError(r.error);
    });
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-1.5">
        <Button
          size="sm"
          disabled={pending}
          onClick={() => run(() => setAlertRuleEnabledAction(id, !enabled))}
          aria-label={`${enabled ? 'Disable' : 'Enable'} ${name}`}
        >
          {enabled ? 'Disable' : 'Enable'}
        </Button>
        {confirming ? (
          <>
            <Button size="sm" variant="danger" disabled={pending} onClick={() => run(() => deleteAlertRuleAction(id))}>
              Delete with its alerts
            </Button>
            <Button size="sm" disabled={pending} onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </>
        ) : (
          <Button size="sm" disabled={pending} onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
            Delete
          </Button>
        )}
      </div>
      {error ? <ErrorCallout error={error} /> : null}
    </div>
  );
}

/** Shown only to admins (the server refuses the others anyway). */
export function RuleActions(props: Parameters<typeof RuleActionsForRole>[0]) {
  return (
    <Can min="admin">
      <RuleActionsForRole {...props} />
    </Can>
  );
}
