'use client';

import { Can } from '@/components/console/role';
import { useActionState, useState, useTransition } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { CopyButton } from '@/components/console/copy-button';
import { Button, Field, Input, SubmitButton } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { createConnectAction, registerNonprofitAction, revealApiKeyAction } from './actions';

function RegisterNonprofitFormForRole({ ein }: { ein?: string }) {
  const [state, action] = useActionState(registerNonprofitAction, {} as TFormState);
  const v = state.values ?? {};
  const fe = state.fieldErrors ?? {};
  const val = (k: string, fallback = '') => (typeof v[k] === 'string' ? (v[k] as string) : fallback);
  return (
    <form action={action} key={state.nonce} className="space-y-3" noValidate aria-label="Register a nonprofit">
      {state.error ? <ErrorCallout error={state.error} title="The nonprofit was not registered" /> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="EIN" htmlFor="reg-ein" error={fe.ein} hint="9 digits, no dash.">
          <Input id="reg-ein" name="ein" inputMode="numeric" defaultValue={val('ein', ein)} invalid={!!fe.ein} className="font-mono" placeholder="123456789" />
        </Field>
        <Field label="Name" htmlFor="reg-name" error={fe.name} hint="Optional; defaults to “Nonprofit {EIN}”.">
          <Input id="reg-name" name="name" defaultValue={val('name')} invalid={!!fe.name} />
        </Field>
      </div>
      <p className="pt-1 text-xs font-semibold text-slate-600">Contact (kept for support, never returned by the API)</p>
      <Field label="E-mail" htmlFor="reg-email" error={fe.email}>
        <Input id="reg-email" name="email" type="email" defaultValue={val('email')} invalid={!!fe.email} />
      </Field>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Phone" htmlFor="reg-phone" error={fe.phone}>
          <Input id="reg-phone" name="phone" inputMode="tel" defaultValue={val('phone')} invalid={!!fe.phone} placeholder="digits only" />
        </Field>
        <Field label="First name" htmlFor="reg-first" error={fe.firstName}>
          <Input id="reg-first" name="firstName" defaultValue={val('firstName')} invalid={!!fe.firstName} />
        </Field>
        <Field label="Last name" htmlFor="reg-last" error={fe.lastName}>
          <Input id="reg-last" name="lastName" defaultValue={val('lastName')} invalid={!!fe.lastName} />
        </Field>
      </div>
      <SubmitButton pendingLabel="Registering…">Register nonprofit</SubmitButton>
    </form>
  );
}

function CreateConnectFormForRole({ nonprofitId, ein }: { nonprofitId: string; ein: string }) {
  const [state, action] = useActionState(createConnectAction, {} as TFormState);
  return (
    <form action={action} className="space-y-2">
      <input type="hidden" name="nonprofitId" value={nonprofitId} />
      <input type="hidden" name="ein" value={ein} />
      <SubmitButton pendingLabel="Creating…">Create Connect</SubmitButton>
      <p className="text-xs text-slate-500">One Connect per nonprofit per account: for an existing one, this opens it.</p>
      {state.error ? <ErrorCallout error={state.error} title="The Connect was not created" /> : null}
    </form>
  );
}

function ApiKeyRevealForRole({ connectId }: { connectId: string }) {
  const [apiKey, setApiKey] = useState<string | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [pending, startTransition] = useTransition();
  const reveal = () =>
    startTransition(async () => {
      setError(null);
      const r = await revealApiKeyAction(connectId);
      if (r.ok) setApiKey(r.data!.apiKey);
      else setError(r.error);
    });
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800" data-testid="api-key">
          {apiKey ?? 'sk_test_••••••••••••••••••••••••••••••••'}
        </code>
        {apiKey ? (
          <>
            <CopyButton value={apiKey} />
            <Button size="sm" variant="ghost" onClick={() => setApiKey(null)}>
              Hide
            </Button>
          </>
        ) : (
          <Button size="sm" onClick={reveal} disabled={pending}>
            {pending ? 'Revealing…' : 'Reveal'}
          </Button>
        )}
      </div>
      {error ? <ErrorCallout error={error} /> : null}
    </div>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function RegisterNonprofitForm(props: Parameters<typeof RegisterNonprofitFormForRole>[0]) {
  return (
    <Can min="operator">
      <RegisterNonprofitFormForRole {...props} />
    </Can>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function CreateConnectForm(props: Parameters<typeof CreateConnectFormForRole>[0]) {
  return (
    <Can min="operator">
      <CreateConnectFormForRole {...props} />
    </Can>
  );
}

/** Shown only to admins (the server refuses the others anyway). */
export function ApiKeyReveal(props: Parameters<typeof ApiKeyRevealForRole>[0]) {
  return (
    <Can min="admin">
      <ApiKeyRevealForRole {...props} />
    </Can>
  );
}
