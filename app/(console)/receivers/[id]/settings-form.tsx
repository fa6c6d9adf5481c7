'use client';

import { Can, useCan } from '@/components/console/role';
import { useActionState, useState } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { Button, Field, Input, SubmitButton, Textarea } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { updateReceiverAction } from '../actions';

type TSettings = { id: string; name: string; secrets: string[]; responseStatus: number; responseBody: string; responseDelayMs: number };

function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

// An admin sees the secrets whole (hidden until Show); an operator sees each as its stand-in
// `[secret 1a2b3c4d…]`, which, left as it is, keeps that secret (lib/console/receivers/secrets-for-role.ts).
function SecretInput({ name, label, defaultValue, error, hint }: { name: string; label: string; defaultValue: string; error?: string; hint: string }) {
  const admin = useCan('admin');
  const [value, setValue] = useState(defaultValue);
  const [shown, setShown] = useState(false);
  const standIn = /^\[secret [0-9a-f]{8}…\]$/.test(value);
  return (
    <Field
      label={label}
      htmlFor={name}
      error={error}
      hint={admin ? hint : `${hint} Only admins see a secret in full: keep this fingerprint to keep it, or paste or generate a new one.`}
    >
      <div className="flex gap-2">
        <Input
          id={name}
          name={name}
          type={shown || standIn ? 'text' : 'password'}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="whsec_…"
          autoComplete="off"
          className="font-mono"
          invalid={!!error}
        />
        {admin ? (
          <Button size="sm" onClick={() => setShown((s) => !s)}>
            {shown ? 'Hide' : 'Show'}
          </Button>
        ) : null}
        <Button
          size="sm"
          onClick={() => {
            setValue(generateSecret());
            setShown(true);
          }}
        >
          Generate
        </Button>
      </div>
    </Field>
  );
}

function ReceiverSettingsFormForRole({ receiver }: { receiver: TSettings }) {
  const [state, action] = useActionState(updateReceiverAction, {} as TFormState);
  const v = state.values ?? {};
  const fe = state.fieldErrors ?? {};
  const val = (k: string, fallback: string) => (typeof v[k] === 'string' ? (v[k] as string) : fallback);
  return (
    <form action={action} key={state.nonce} className="space-y-4" noValidate aria-label="Receiver settings">
      <input type="hidden" name="id" value={receiver.id} />
      {state.notice ? <Callout tone="success">{state.notice}</Callout> : null}
      {state.warnings?.length ? (
        <Callout tone="warning" title="A webhook delivering here signs with another secret">
          <ul className="space-y-1 [overflow-wrap:anywhere]" data-testid="secret-warnings">
            {state.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {state.error ? <ErrorCallout error={state.error} /> : null}
      {state.confirm?.length ? (
        <Callout tone="warning" title="Not saved yet: a webhook delivering here signs with another secret">
          <ul className="space-y-1 [overflow-wrap:anywhere]" data-testid="secret-confirm">
            {state.confirm.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <p className="mt-2 text-xs">Save anyway (e.g. the webhook’s secret is being rotated too), or keep the secret its webhooks sign with.</p>
          <SubmitButton name="confirmed" value="secrets" variant="danger" size="sm" className="mt-2" pendingLabel="Saving…">
            Save anyway
          </SubmitButton>
        </Callout>
      ) : null}
      <Field label="Name" htmlFor="name" error={fe.name}>
        <Input id="name" name="name" defaultValue={val('name', receiver.name)} invalid={!!fe.name} maxLength={100} />
      </Field>
      <SecretInput
        name="secret1"
        label="Signing secret"
        defaultValue={val('secret1', receiver.secrets[0] ?? '')}
        error={fe.secret1}
        hint="Receipts are verified against this…"
      />
      <SecretInput
        name="secret2"
        label="Second secret (rotation)"
        defaultValue={val('secret2', receiver.secrets[1] ?? '')}
        error={fe.secret2}
        hint="…or this one, while a rotation is under way."
      />
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-xs font-semibold text-slate-600">Response (for drills)</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Status code" htmlFor="responseStatus" error={fe.responseStatus} hint="500 to watch retries, 410 to watch the webhook get disabled.">
            <Input
              id="responseStatus"
              name="responseStatus"
              type="number"
              min={200}
              max={599}
              defaultValue={val('responseStatus', String(receiver.responseStatus))}
              invalid={!!fe.responseStatus}
            />
          </Field>
          <Field label="Delay (ms)" htmlFor="responseDelayMs" error={fe.responseDelayMs} hint="0–30000. Over 15 s the API counts a timeout.">
            <Input
              id="responseDelayMs"
              name="responseDelayMs"
              type="number"
              min={0}
              max={30000}
              step={100}
              defaultValue={val('responseDelayMs', String(receiver.responseDelayMs))}
              invalid={!!fe.responseDelayMs}
            />
          </Field>
        </div>
        <Field label="Body" htmlFor="responseBody" error={fe.responseBody}>
          <Textarea id="responseBody" name="responseBody" rows={3} defaultValue={val('responseBody', receiver.responseBody)} invalid={!!fe.responseBody} />
        </Field>
      </fieldset>
      <SubmitButton pendingLabel="Saving…">Save settings</SubmitButton>
    </form>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function ReceiverSettingsForm(props: Parameters<typeof ReceiverSettingsFormForRole>[0]) {
  return (
    <Can min="operator">
      <ReceiverSettingsFormForRole {...props} />
    </Can>
  );
}
