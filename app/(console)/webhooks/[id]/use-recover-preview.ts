'use client';

import { useState, useTransition, type ReactNode } from 'react';
import type { TActionResult, TErrorInfo } from '@/app/(console)/_lib/errors';
import { useFocusReturn } from '@/components/console/use-focus-return';
import { fromUtcInput, toUtcInput } from '@/lib/console/format';
import { previewRecoverAction, previewResendDeliveredAction, previewRetryNowAction } from './recover-actions';
import type { TKindCount, TRecoverWindow } from './recover-kind-section';

// The recover card's state: closed or open, the window's two fields (the last 24 hours when it
// opens), and the three kinds' counts of the window last previewed. A field error of any kind is
// the form's (the window is the same for the three); the card hides for good when the service
// offers neither of its own two kinds.

export type TRecoverCounts = { failed: TKindCount; retry: TKindCount; resend: TKindCount };
export type TPreviewed = { window: TRecoverWindow; counts: TRecoverCounts; at: number };

const DEFAULT_WINDOW_MS = 24 * 3600_000;

function countOf<T>(r: TActionResult<T>, messages: (d: T) => number, note?: (d: T) => ReactNode): TKindCount {
  if (r.ok && r.data !== undefined) return { kind: 'count', messages: messages(r.data), note: note?.(r.data) };
  if (!r.ok && r.unsupported) return { kind: 'unsupported' };
  return { kind: 'error', error: r.ok ? { message: 'No answer.' } : r.error };
}

export function useRecoverPreview(webhookId: string) {
  const [open, setOpen] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [previewed, setPreviewed] = useState<TPreviewed | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [busy, startBusy] = useTransition();
  const opener = useFocusReturn<HTMLButtonElement>(open);

  const fieldError = (name: string) => error?.errors?.find((e) => e.path === name)?.message;

  const openPanel = () => {
    setSince(toUtcInput(new Date(Date.now() - DEFAULT_WINDOW_MS)));
    setUntil('');
    setPreviewed(null);
    setError(null);
    setOpen(true);
  };

  const preview = () =>
    startBusy(async () => {
      setError(null);
      const asked = { since: fromUtcInput(since) ?? '', until: fromUtcInput(until) };
      const [failed, retry, resend] = await Promise.all([
        previewRecoverAction(webhookId, asked),
        previewRetryNowAction(webhookId, asked),
        previewResendDeliveredAction(webhookId, asked),
      ]);
      const invalid = [failed, retry, resend].find((r) => !r.ok && r.error.errors?.length);
      if (invalid && !invalid.ok) return setError(invalid.error);
      if (!failed.ok && failed.unsupported && !retry.ok && retry.unsupported) return setHidden(true);
      setPreviewed({
        window: asked,
        at: Date.now(),
        counts: {
          failed: countOf(failed, (d) => d.messages),
          retry: countOf(retry, (d) => d.messages),
          resend: countOf(
            resend,
            (d) => d.messages,
            (d) =>
              d.receiver === null
                ? "This webhook's URL is not one of this console's receivers: nothing to compare."
                : `Receiver: ${d.receiver.name}.${d.truncated ? ' More than this: run again for the rest.' : ''}${d.disabled ? ' The webhook is disabled: enable it before re-sending.' : ''}`,
          ),
        },
      });
    });

  return { open, close: () => setOpen(false), hidden, since, setSince, until, setUntil, previewed, error, fieldError, busy, opener, openPanel, preview };
}
