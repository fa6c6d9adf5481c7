'use client';

import { Can } from '@/components/console/role';
import { useActionState } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import { Checkbox, Field, Input, SubmitButton } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { createReceiverAction } from './actions';

function CreateReceiverFormForRole() {
  const [state, action] = useActionState(createReceiverAction, {} as TFormState);
  const v = state.values ?? {};
  const fe = state.fieldErrors ?? {};
  return (
    <form action={action} key={state.nonce} className="space-y-3" noValidate aria-label="Create a receiver">
      {state.error ? <ErrorCallout error={state.error} /> : null}
      <Field label="Name" htmlFor="name" error={fe.name}>
        <Input id="name" name="name" defaultValue={(v.name as string) ?? ''} placeholder="e.g. Acme staging" invalid={!!fe.name} required maxLength={100} />
      </Field>
      <Field label="Slug" htmlFor="slug" error={fe.slug} hint="Optional; the last part of the ingest URL. Random when empty.">
        <Input id="slug" name="slug" defaultValue={(v.slug as string) ?? ''} placeholder="random" invalid={!!fe.slug} className="font-mono" />
      </Field>
      <Field label="Signing secret" htmlFor="secret" error={fe.secret} hint="Optional whsec_… of the webhook that will send here.">
        <Input
          id="secret"
          name="secret"
          defaultValue={(v.secret as string) ?? ''}
          placeholder="whsec_…"
          invalid={!!fe.secret}
          className="font-mono"
          autoComplete="off"
        />
      </Field>
      <Checkbox name="generateSecret" defaultChecked={v.generateSecret !== false} label="Generate one when empty" />
      <div>
        <SubmitButton pendingLabel="Creating…">Create receiver</SubmitButton>
      </div>
    </form>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function CreateReceiverForm() {
  return (
    <Can min="operator">
      <CreateReceiverFormForRole />
    </Can>
  );
}
