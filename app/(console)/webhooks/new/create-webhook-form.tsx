'use client';

import { useActionState, useState } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { Button, Checkbox, Field, Input, Select, SubmitButton, Textarea } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { createWebhookAction } from '../actions';
import { isOperationalEventType } from '@/lib/constants';

type TDestination = 'new-receiver' | 'receiver' | 'url';
type TReceiverOption = { id: string; name: string; slug: string };

/** The receiver a typed URL names by its path (/ingest/{slug}); the server also checks the host when the form is sent. */
function receiverByPath(url: string, receivers: TReceiverOption[]): TReceiverOption | null {
  const slug = /^https?:\/\/[^/]+\/ingest\/([a-z0-9-]+)\/?(?:[?#].*)?$/i.exec(url.trim())?.[1]?.toLowerCase();
  return slug ? (receivers.find((r) => r.slug === slug) ?? null) : null;
}

export function CreateWebhookForm({ eventTypes, receivers }: { eventTypes: string[]; receivers: TReceiverOption[] }) {
  const [state, action] = useActionState(createWebhookAction, {} as TFormState);
  const v = state.values ?? {};
  const fe = state.fieldErrors ?? {};
  const [destination, setDestination] = useState<TDestination>((v.destination as TDestination) ?? 'new-receiver');
  const [url, setUrl] = useState((v.url as string) ?? '');
  const [receiverId, setReceiverId] = useState((v.receiverId as string) || receivers[0]?.id || '');
  const typedReceiver = destination === 'url' ? receiverByPath(url, receivers) : null;
  const pickReceiver = (id: string) => {
    setReceiverId(id);
    setDestination('receiver');
  };
  // Donation events by default; the operational ones (about the webhooks themselves: disabled,
  // retries exhausted, recovered) are for an alerting endpoint, so they are opt-in.
  const checked = (t: string) => (Array.isArray(v.eventTypes) ? v.eventTypes.includes(t) : !isOperationalEventType(t));
  return (
    <form action={action} key={state.nonce} className="space-y-5 rounded-lg border border-slate-200 bg-surface p-5" noValidate>
      {state.error ? <ErrorCallout error={state.error} title="The subscription was not created" /> : null}
      {state.confirm?.length && typeof v.matchReceiverId === 'string' ? (
        <Callout tone="warning" title="Not created yet: this URL is one of this console’s receivers">
          <p data-testid="url-receiver-confirm">{state.confirm[0]}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <SubmitButton name="useReceiver" value={v.matchReceiverId} size="sm" pendingLabel="Creating…">
              Use that receiver (and its secret)
            </SubmitButton>
            <SubmitButton name="confirmed" value="url" variant="danger" size="sm" pendingLabel="Creating…">
              Create with a fresh secret anyway
            </SubmitButton>
          </div>
        </Callout>
      ) : null}

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
                <input
                  type="radio"
                  name="destination"
                  value={value}
                  checked={destination === value}
                  onChange={() => setDestination(value)}
                  disabled={value === 'receiver' && receivers.length === 0}
                />
                {label}
              </span>
              <span className="pl-5 text-xs text-slate-600">{hint}</span>
            </label>
          ))}
        </div>
        {destination === 'new-receiver' ? (
          <Field
            label="Receiver name"
            htmlFor="receiverName"
            error={fe.receiverName}
            hint="Optional. The receiver gets a random URL and a fresh whsec_ signing secret shared with the webhook."
          >
            <Input
              id="receiverName"
              name="receiverName"
              defaultValue={(v.receiverName as string) ?? ''}
              placeholder="e.g. Ticket 4711 — Acme integration"
              maxLength={100}
            />
          </Field>
        ) : null}
        {destination === 'receiver' ? (
          <Field
            label="Receiver"
            htmlFor="receiverId"
            error={fe.receiverId}
            hint="The webhook will sign with the receiver's first secret (one is generated when it has none)."
          >
            <Select id="receiverId" name="receiverId" value={receiverId} onChange={(e) => setReceiverId(e.target.value)}>
              {receivers.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} ({r.slug})
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        {destination === 'url' ? (
          <Field
            label="URL"
            htmlFor="url"
            error={fe.url}
            hint="Absolute http(s) URL of the integrator's endpoint; deliveries there are stored by this console only when it is one of its receivers (/ingest/…)."
          >
            <Input
              id="url"
              name="url"
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.org/webhooks/giving-connect"
              invalid={!!fe.url}
            />
          </Field>
        ) : null}
        {typedReceiver ? (
          <div
            className="flex flex-wrap items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900"
            data-testid="url-is-receiver"
          >
            <span className="min-w-0 flex-1">
              This is this console’s receiver “{typedReceiver.name}”: a fresh secret here would fail its signature check on every delivery.
            </span>
            <Button size="sm" onClick={() => pickReceiver(typedReceiver.id)}>
              Use that receiver (and its secret)
            </Button>
          </div>
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
            <span key={t}>
              {i > 0 ? ', ' : ''}
              <code className="font-mono">{t}</code>
            </span>
          ))}{' '}
          are operational events about your webhooks themselves, for an alerting endpoint; donation endpoints usually leave them off.
        </p>
        {fe.eventTypes ? <p className="text-xs text-rose-700">{fe.eventTypes}</p> : null}
      </fieldset>

      <Field label="Description" htmlFor="description" error={fe.description} hint="Optional, up to 1000 characters. Shown as the webhook's title here.">
        <Textarea
          id="description"
          name="description"
          rows={2}
          defaultValue={(v.description as string) ?? ''}
          invalid={!!fe.description}
          className="font-sans text-sm"
        />
      </Field>

      <Checkbox name="disabled" defaultChecked={v.disabled === true} label="Create it disabled (no deliveries until enabled)" />

      <div className="flex items-center gap-3 border-t border-slate-100 pt-4">
        <SubmitButton pendingLabel="Creating…">Create subscription</SubmitButton>
        <span className="text-xs text-slate-500">You will land on its timeline, ready to send a test event.</span>
      </div>
    </form>
  );
}
