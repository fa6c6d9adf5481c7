'use client';

import { useState, useTransition } from 'react';
import { Can } from '@/components/console/role';
import { ErrorCallout } from '@/components/console/callout';
import { Button, Input, Select } from '@/components/console/form';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { acknowledgeAlertAction, snoozeAlertAction } from './alert-actions';

const SNOOZE_CHOICES = [1, 4, 8, 24, 72, 168];

/** Acknowledge (with an optional note) and snooze, for one firing alert. */
function QuietActionsForRole({ id, acknowledged }: { id: string; acknowledged: boolean }) {
  const [pending, start] = useTransition();
  const [open, setOpen] = useState<'ack' | null>(null);
  const [note, setNote] = useState('');
  const [hours, setHours] = useState(4);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const run = (fn: () => Promise<{ ok: boolean; error?: TErrorInfo }>) =>
    start(async () => {
      setError(null);
      const r = await fn();
      if (!r.ok && r.error) setError(r.error);
      else setOpen(null);
    });
  return (
    <div className="flex flex-col items-start gap-1" data-testid="alert-quiet-actions">
      {open === 'ack' ? (
        <div className="flex flex-wrap items-center gap-1">
          <Input
            aria-label="Note (optional)"
            placeholder="Note (optional)"
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.target.value)}
            className="h-7 w-40 text-xs"
          />
          <Button size="sm" variant="primary" disabled={pending} onClick={() => run(() => acknowledgeAlertAction(id, note))}>
            Acknowledge
          </Button>
          <Button size="sm" disabled={pending} onClick={() => setOpen(null)}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-1">
          {acknowledged ? null : (
            <Button size="sm" disabled={pending} onClick={() => setOpen('ack')}>
              Acknowledge…
            </Button>
          )}
          <Select aria-label="Snooze for" value={hours} onChange={(e) => setHours(Number(e.target.value))} className="h-7 w-24 text-xs">
            {SNOOZE_CHOICES.map((h) => (
              <option key={h} value={h}>
                {h < 24 ? `${h} h` : `${h / 24} d`}
              </option>
            ))}
          </Select>
          <Button size="sm" disabled={pending} onClick={() => run(() => snoozeAlertAction(id, hours))}>
            Snooze
          </Button>
        </div>
      )}
      {error ? <ErrorCallout error={error} /> : null}
    </div>
  );
}

/** Shown to operators and admins (the server refuses viewers anyway). */
export function QuietActions(props: Parameters<typeof QuietActionsForRole>[0]) {
  return (
    <Can min="operator">
      <QuietActionsForRole {...props} />
    </Can>
  );
}
