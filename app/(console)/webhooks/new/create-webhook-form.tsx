'use client';

import { useActionState, useState } from 'react';
import { ErrorCallout } from '@/components/console/callout';
import { Checkbox, Field, Input, Select, SubmitButton, Textarea } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { createWebhookAction } from '../actions';
import { isOperationalEventType } from '@/lib/constants';

type TDestination = 'new-receiver' | 'receiver' | 'url';

export function CreateWebhookForm({ eventTypes, receivers }: { eventTypes: string[]; receivers: { id: string; name: string; slug: string }[] }) {
  const [state, action] = useActionState(createWebhookAction, {} as TFormState);
  const v = state.values ?? {};
  const fe = state.fieldErrors ?? {};
  const [destination, setDestination] = useState<TDestination>((v.destination as TDestination) ?? 'new-receiver');
  // Donation events by default; the operational ones (about the webhooks themselves: disabled,
  // retries exhausted, recovered) are for an alerting endpoint, so they are opt-in.
  const checked = (t: string) => (Array.isArray(v.eventTypes) ? v.eventTypes.includes(t) : !isOperationalEventType(t));
  return (
    <form action={action} key={state.nonce} className="space-y-5 rounded-lg border border-slate-200 bg-white p-5" noValidate>
      {state.error ? <ErrorCallout error={state.error} title="The subscription was not created" /> : null}

      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-800">Where should deliveries go?</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {(
            [
              ['new-receiver', 'A new receiver', 'Stored here, signature checked'],
              ['receiver', 'An existing receiver', `${receivers.length} available`],
              ['url', 'Another URL', "The integrator's endpoint"],
            ] as [TDestination, string, string][]
          ).map(([value, label, hint]) => (
            <label
              key={value}
              className={`flex cursor-pointer flex-col rounded-md border px-3 py-2 text-sm ${destination === value ? 'border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500' : 'border-slate-300 hover:bg-slate-50'}`}
            >
              <span className="flex items-center gap-2 font-medium text-slate-900">
                <input type="radio" name="destination" value={value} checked={destination === value} onChange={() => setDestination(value)} disabled={value === 'receiver' && receivers.length === 0} />
                {label}
              </span>
              <span className="pl-5 text-xs text-slate-500">{hint}</span>
            </label>
          ))}
        </div>
        {destination === 'new-receiver' ? (
          <Field label="Receiver name" htmlFor="receiverName" error={fe.receiverName} hint="Optional. The receiver gets a random URL and a fresh whsec_ signing secret shared with the webhook.">
            <Input id="receiverName" name="receiverName" defaultValue={(v.receiverName as string) ?? ''} placeholder="e.g. Ticket 4711 — Acme integration" maxLength={100} />
          </Field>
        ) : null}
        {destination === 'receiver' ? (
          <Field label="Receiver" htmlFor="receiverId" error={fe.receiverId} hint="The webhook will sign with the receiver's first secret (one is generated when it has none).">
            <Select id="receiverId" name="receiverId" defaultValue={(v.receiverId as string) ?? receivers[0]?.id}>
              {receivers.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} ({r.slug})
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        {destination === 'url' ? (
          <Field label="URL" htmlFor="url" error={fe.url} hint="Absolute http(s) URL. Deliveries there are not stored by this console.">
            <Input id="url" name="url" type="url" defaultValue={(v.url as string) ?? ''} placeholder="https://example.org/webhooks/giving-connect" invalid={!!fe.url} />
          </Field>
        ) : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-800">Event types</legend>
        <div className="flex flex-wrap gap-4">
          {eventTypes.map((t) => (
            <Checkbox key={t} name="eventTypes" value={t} defaultChecked={checked(t)} label={<code className="font-mono text-sm">{t}</code>} />
          ))}
        </div>
        <p className="text-xs text-slate-500">
          {eventTypes.filter(isOperationalEventType).map((t, i) => (
            <span key={t}>{i > 0 ? ', ' : ''}<code className="font-mono">{t}</code></span>
          ))}{' '}
          are operational events about your webhooks themselves, for an alerting endpoint; donation endpoints usually leave them off.
        </p>
        {fe.eventTypes ? <p className="text-xs text-rose-700">{fe.eventTypes}</p> : null}
      </fieldset>

      <Field label="Description" htmlFor="description" error={fe.description} hint="Optional, up to 1000 characters. Shown as the webhook's title here.">
        <Textarea id="description" name="description" rows={2} defaultValue={(v.description as string) ?? ''} invalid={!!fe.description} className="font-sans text-sm" />
      </Field>

      <Checkbox name="disabled" defaultChecked={v.disabled === true} label="Create it disabled (no deliveries until enabled)" />

      <div className="flex items-center gap-3 border-t border-slate-100 pt-4">
        <SubmitButton pendingLabel="Creating…">Create subscription</SubmitButton>
        <span className="text-xs text-slate-500">You will land on its timeline, ready to send a test event.</span>
      </div>
    </form>
  );
}
