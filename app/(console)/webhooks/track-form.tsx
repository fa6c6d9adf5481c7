'use client';

import { Can } from '@/components/console/role';
import { useActionState } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import { Input, SubmitButton } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { trackWebhookAction } from './actions';

function TrackWebhookFormForRole() {
  const [state, action] = useActionState(trackWebhookAction, {} as TFormState);
  return (
    <form action={action} key={state.nonce} className="w-full space-y-1.5 sm:w-auto" aria-label="Track a webhook by id">
      <div className="flex items-start gap-2">
        <label htmlFor="track-webhook-id" className="sr-only">
          Webhook id
        </label>
        <Input
          id="track-webhook-id"
          name="webhookId"
          placeholder="ep_…"
          defaultValue={(state.values?.webhookId as string) ?? ''}
          invalid={!!state.fieldErrors?.webhookId}
          className="min-w-0 flex-1 font-mono sm:w-72 sm:flex-none"
          required
        />
        <SubmitButton variant="secondary" pendingLabel="Checking…">
          Track by id
        </SubmitButton>
      </div>
      {state.fieldErrors?.webhookId ? <p className="text-xs text-rose-700">{state.fieldErrors.webhookId}</p> : null}
      {state.error ? <ErrorCallout error={state.error} /> : null}
    </form>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function TrackWebhookForm() {
  return (
    <Can min="operator">
      <TrackWebhookFormForRole />
    </Can>
  );
}
