'use client';

import { Can } from '@/components/console/role';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useBusy } from '@/components/console/use-busy';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCallout } from '@/components/console/callout';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { Button, Select } from '@/components/console/form';
import type { TTimeline, TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import { sendTestEventAction, setWebhookDisabledAction, setWebhookPausedAction } from './actions';
import { DisableConfirm } from './disable-confirm';
import { useFocusReturn } from '@/components/console/use-focus-return';
import { timelinePagesKey, useTimeline, webhookQueriesKey } from './use-timeline';

// The webhook page's header actions, in one row that never moves: enable/disable (EXT PATCH,
// hidden when the service does not support it; disabling asks first), pause/resume (EXT `paused`:
// hidden, with a sentence, when the service's webhook does not carry it) and "Send test event". The
// enabled state is the polled timeline's, so the buttons follow a webhook the service disabled.
// What they report shows as a toast in the corner: a notice clears itself, an error stays until dismissed.

const NOTICE_MAX_MS = 6000;
// A test event's message is usually on the timeline at once: long enough to be read, not a flicker.
const NOTICE_MIN_MS = 2000;

type TFeedback = { kind: 'notice'; text: string; messageId?: string } | { kind: 'error'; title: string; error: TErrorInfo };

function WebhookActionsForRole({
  webhookId,
  filters,
  initial,
  eventTypes,
}: {
  webhookId: string;
  filters: TTimelineFilters;
  initial: TTimeline;
  eventTypes: string[];
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data } = useTimeline(webhookId, filters, initial);
  // A poll whose settings read failed keeps the last page's settings rather than hiding the toggle.
  const webhook = data.webhook ?? initial.webhook;
  const disabled = webhook?.disabled ?? false;
  const canToggle = webhook !== null;
  // undefined: the service's webhook has no `paused` (a service without pause).
  const paused = webhook?.paused;
  const [pausing, startPause] = useBusy();
  const [confirming, setConfirming] = useState(false);
  const [sending, startSend] = useBusy();
  const [saving, startSave] = useBusy();
  const [eventType, setEventType] = useState(eventTypes[0] ?? '');
  const [toggleHidden, setToggleHidden] = useState(false);
  const [feedback, setFeedback] = useState<TFeedback | null>(null);
  // Cancel, Escape or Disable: focus goes back to the toggle (busy buttons stay focusable: aria-disabled).
  const toggleRef = useFocusReturn<HTMLButtonElement>(confirming);

  const send = () =>
    startSend(async () => {
      setFeedback(null);
      const r = await sendTestEventAction(webhookId, eventType || undefined);
      if (r.ok) {
        setFeedback({ kind: 'notice', text: r.notice ?? 'Sent.', messageId: r.data?.messageId });
        await queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
      } else {
        setFeedback({ kind: 'error', title: 'The test event was not sent', error: r.error });
      }
    });

  const setDisabled = (next: boolean) =>
    startSave(async () => {
      setConfirming(false);
      setFeedback(null);
      const r = await setWebhookDisabledAction(webhookId, next);
      if (r.ok) {
        // Every query of the webhook at once — its settings (the buttons and the header follow them:
        // waited for, so the label never flips back) and its health — so the Health section never
        // says "disabled" under an "Enabled" header until its next poll.
        await queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
        setFeedback({ kind: 'notice', text: r.notice ?? 'Saved.' });
        // The server-rendered outage card (when it will be disabled; the gap an outage left) follows, not waited for.
        router.refresh();
      } else if (r.unsupported) setToggleHidden(true);
      else setFeedback({ kind: 'error', title: next ? 'The webhook was not disabled' : 'The webhook was not enabled', error: r.error });
    });

  const setPaused = (next: boolean) =>
    startPause(async () => {
      setFeedback(null);
      const r = await setWebhookPausedAction(webhookId, next);
      if (r.ok) {
        await queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
        setFeedback({ kind: 'notice', text: r.notice ?? 'Saved.' });
        router.refresh();
      } else setFeedback({ kind: 'error', title: next ? 'The webhook was not paused' : 'The webhook was not resumed', error: r.error });
    });

  // A notice goes after a few seconds, or (after a short minimum) once the message it names is on the timeline.
  useEffect(() => {
    if (feedback?.kind !== 'notice') return;
    const clear = () => setFeedback((f) => (f === feedback ? null : f));
    const messageId = feedback.messageId;
    const onTimeline = () =>
      !!messageId &&
      queryClient.getQueriesData<TTimeline>({ queryKey: timelinePagesKey(webhookId) }).some(([, data]) => data?.messages.some((m) => m.id === messageId));
    let unsubscribe = () => {};
    const atMost = setTimeout(clear, NOTICE_MAX_MS);
    const atLeast = setTimeout(() => {
      if (onTimeline()) return clear();
      unsubscribe = queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && onTimeline()) clear();
      });
    }, NOTICE_MIN_MS);
    return () => {
      clearTimeout(atMost);
      clearTimeout(atLeast);
      unsubscribe();
    };
  }, [feedback, queryClient, webhookId]);

  return (
    <>
      <div className="flex flex-wrap items-center gap-2" data-testid="webhook-actions">
        {toggleHidden || !canToggle ? null : confirming ? (
          <DisableConfirm onConfirm={() => setDisabled(true)} onCancel={() => setConfirming(false)} />
        ) : (
          <Button
            ref={toggleRef}
            variant={disabled ? 'secondary' : 'danger'}
            onClick={() => !saving && (disabled ? setDisabled(false) : setConfirming(true))}
            aria-disabled={saving}
          >
            <SteadyLabel label={saving ? 'Saving…' : disabled ? 'Enable' : 'Disable'} widest={['Saving…', 'Enable', 'Disable']} />
          </Button>
        )}
        {webhook && paused !== undefined ? (
          <Button
            variant="secondary"
            onClick={() => setPaused(!paused)}
            aria-disabled={pausing}
            aria-label={pausing ? undefined : paused ? 'Resume deliveries' : 'Pause deliveries'}
          >
            <SteadyLabel label={pausing ? 'Saving…' : paused ? 'Resume' : 'Pause'} widest={['Saving…', 'Resume', 'Pause']} />
          </Button>
        ) : webhook ? (
          <span className="text-xs text-slate-600" data-testid="pause-unsupported">
            Pause is not available: the service does not support it.
          </span>
        ) : null}
        {eventTypes.length > 1 ? (
          <Select aria-label="Event type for the test" value={eventType} onChange={(e) => setEventType(e.target.value)} className="w-auto">
            {eventTypes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        ) : null}
        <Button
          variant="primary"
          onClick={send}
          aria-disabled={sending}
          title={disabled ? 'The webhook is disabled: the API will refuse test events (409)' : undefined}
        >
          <SteadyLabel label={sending ? 'Sending…' : 'Send test event'} widest={['Send test event']} />
        </Button>
      </div>
      {feedback ? (
        <div className="fixed bottom-4 right-4 z-30 w-[28rem] max-w-[calc(100vw-2rem)] shadow-lg" data-testid="action-feedback">
          {feedback.kind === 'notice' ? (
            <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
              {feedback.text}
            </p>
          ) : (
            <div className="relative">
              <ErrorCallout error={feedback.error} title={feedback.title} />
              <button
                type="button"
                onClick={() => setFeedback(null)}
                aria-label="Dismiss"
                className="absolute right-1.5 top-1.5 rounded px-1.5 text-rose-900/70 hover:bg-rose-100 hover:text-rose-900"
              >
                ×
              </button>
            </div>
          )}
        </div>
      ) : null}
    </>
  );
}

/** A label whose box is as wide as the widest of its variants, so the button beside it never shifts. */
function SteadyLabel({ label, widest }: { label: string; widest: string[] }) {
  return (
    <span className="grid">
      <span className="col-start-1 row-start-1 text-center">{label}</span>
      {widest.map((w) => (
        <span key={w} aria-hidden className="invisible col-start-1 row-start-1">
          {w}
        </span>
      ))}
    </span>
  );
}

/** Shown only to operators and admins (the server refuses the others anyway). */
export function WebhookActions(props: Parameters<typeof WebhookActionsForRole>[0]) {
  return (
    <Can min="operator">
      <WebhookActionsForRole {...props} />
    </Can>
  );
}
