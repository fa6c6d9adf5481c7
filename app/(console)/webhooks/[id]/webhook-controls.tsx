'use client';

import { useState, useTransition } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCallout, type TErrorInfo } from '@/components/console/callout';
import { Button, Select } from '@/components/console/form';
import { sendTestEventAction, setWebhookDisabledAction } from './actions';
import { timelineKey } from './timeline';

/** "Send test event": fires the example payload through the real delivery path; the timeline picks it up. */
export function SendTestEvent({ webhookId, eventTypes, disabled }: { webhookId: string; eventTypes: string[]; disabled: boolean }) {
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [eventType, setEventType] = useState(eventTypes[0] ?? '');
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const send = () =>
    startTransition(async () => {
      setError(null);
      setNotice(null);
      const r = await sendTestEventAction(webhookId, eventType || undefined);
      if (r.ok) {
        setNotice(r.notice ?? 'Sent.');
        await queryClient.invalidateQueries({ queryKey: timelineKey(webhookId) });
      } else {
        setError(r.error);
      }
    });
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-2">
        {eventTypes.length > 1 ? (
          <Select aria-label="Event type for the test" value={eventType} onChange={(e) => setEventType(e.target.value)} className="w-auto">
            {eventTypes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        ) : null}
        <Button variant="primary" onClick={send} disabled={pending} title={disabled ? 'The webhook is disabled: the API will refuse test events (409)' : undefined}>
          {pending ? 'Sending…' : 'Send test event'}
        </Button>
      </div>
      {notice ? (
        <p role="status" className="text-xs text-emerald-700">
          {notice}
        </p>
      ) : null}
      {error ? (
        <div className="max-w-md">
          <ErrorCallout error={error} title="The test event was not sent" />
        </div>
      ) : null}
    </div>
  );
}

/** Enable/disable (EXT PATCH); the page hides it when the service does not support it. */
export function WebhookToggle({ webhookId, disabled }: { webhookId: string; disabled: boolean }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  const toggle = () =>
    startTransition(async () => {
      setError(null);
      const r = await setWebhookDisabledAction(webhookId, !disabled);
      if (!r.ok) {
        if (r.unsupported) setHidden(true);
        else setError(r.error);
      }
    });
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant={disabled ? 'secondary' : 'danger'} onClick={toggle} disabled={pending}>
        {pending ? 'Saving…' : disabled ? 'Enable' : 'Disable'}
      </Button>
      {error ? (
        <div className="max-w-md">
          <ErrorCallout error={error} />
        </div>
      ) : null}
    </div>
  );
}
