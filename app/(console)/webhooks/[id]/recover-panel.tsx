'use client';

import { Can } from '@/components/console/role';
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Field, Input } from '@/components/console/form';
import { Card } from '@/components/console/card';
import { UTC_INPUT_PROPS } from '@/components/console/utc-time-field';
import { RecoverKindSection } from './recover-kind-section';
import { RECOVER_KINDS } from './recover-kinds';
import { useRecoverPreview } from './use-recover-preview';
import { webhookQueriesKey } from './use-timeline';

// A webhook's recover card: one window (since, until; UTC in the inputs and to the API), then the
// kinds of RECOVER_KINDS side by side, each with the window's count, one button, a confirmation and
// its result. A kind the service does not offer says so; the card hides when it offers none
// (use-recover-preview.ts).

function RecoverPanelForRole({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const refreshTimeline = useCallback(() => void queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) }), [queryClient, webhookId]);
  const { open, close, hidden, since, setSince, until, setUntil, previewed, error, fieldError, busy, opener, openPanel, preview } =
    useRecoverPreview(webhookId);

  if (hidden) return null;
  if (!open) {
    return (
      <div className="flex justify-end">
        <Button ref={opener} onClick={openPanel} data-testid="recover-open">
          Recover messages
        </Button>
      </div>
    );
  }
  return (
    <Card
      title="Recover messages"
      actions={
        <Button size="sm" onClick={close}>
          Close
        </Button>
      }
    >
      {/* Opened: focus on its first field; Escape (outside a running count) closes it. */}
      <div className="space-y-3" data-testid="recover-panel" onKeyDown={(e) => e.key === 'Escape' && !busy && close()}>
        <p className="text-sm text-slate-600">
          Pick a window (at most 14 days), preview how many messages each kind holds, then run one. Every run is written to the audit log.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Since (UTC)" htmlFor="recover-since" error={fieldError('since')}>
            <Input
              autoFocus
              id="recover-since"
              {...UTC_INPUT_PROPS}
              className="font-mono"
              value={since}
              onChange={(e) => setSince(e.target.value)}
              invalid={!!fieldError('since')}
            />
          </Field>
          <Field label="Until (UTC, optional)" htmlFor="recover-until" error={fieldError('until')} hint="empty: now">
            <Input
              id="recover-until"
              {...UTC_INPUT_PROPS}
              className="font-mono"
              value={until}
              onChange={(e) => setUntil(e.target.value)}
              invalid={!!fieldError('until')}
            />
          </Field>
          <Button variant="primary" onClick={preview} disabled={busy || !since}>
            {busy ? 'Counting…' : previewed ? 'Count again' : 'Preview'}
          </Button>
        </div>
        {error && !fieldError('since') && !fieldError('until') ? <p className="text-sm text-rose-700">{error.message}</p> : null}
        {previewed ? (
          <div className="grid gap-3 md:grid-cols-3" key={previewed.at} data-testid="recover-kinds">
            {RECOVER_KINDS.map((spec) => (
              <RecoverKindSection
                key={spec.key}
                spec={spec}
                count={previewed.counts[spec.key]}
                ctx={{ webhookId, window: previewed.window, refreshTimeline }}
              />
            ))}
          </div>
        ) : null}
      </div>
    </Card>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function RecoverPanel(props: Parameters<typeof RecoverPanelForRole>[0]) {
  return (
    <Can min="operator">
      <RecoverPanelForRole {...props} />
    </Can>
  );
}
