'use client';

import type { TRecoverRun, TRetryPendingResult } from '@/lib/console/connect-api/types';
import { formatUtcLabel, plural } from '@/lib/console/format';
import { resendSummary, type TResendCounts } from '@/lib/console/recover/resend-summary';
import { resendDeliveredAction, retryNowAction, startRecoverAction } from './recover-actions';
import type { TRecoverKindSpec } from './recover-kind-section';
import { RecoverProgress } from './recover-progress';

// The recover card's three kinds, side by side in this order: failed for good (the service's
// recover run, with its progress), waiting for a retry (retry now: the schedule resumes after),
// delivered but failed at this console's receiver (re-send). Each is declared once here.

const failedForGood: TRecoverKindSpec<TRecoverRun> = {
  key: 'failed',
  title: 'Failed for good',
  what: 'Messages whose delivery to this webhook failed with every retry used: each is re-sent once.',
  counted: (n) => (
    <span data-testid="recover-preview">
      {n === 0 ? 'No failed messages in this window: nothing to re-send.' : `${plural(n, 'failed message')} will be re-sent.`}
    </span>
  ),
  action: (n) => `Re-send ${n}`,
  confirm: (n) => `Re-send ${plural(n, 'failed message')} to this webhook now, once each?`,
  run: ({ webhookId, window }) => startRecoverAction(webhookId, window),
  result: (run, { webhookId, refreshTimeline }) => <RecoverProgress webhookId={webhookId} initial={run} onDone={refreshTimeline} />,
};

const waitingForRetry: TRecoverKindSpec<TRetryPendingResult> = {
  key: 'retry',
  title: 'Waiting for a retry',
  what: 'Messages that failed and wait for their next scheduled retry: attempted now, and the schedule resumes after (a failure waits for the next retry).',
  counted: (n) => (n === 0 ? 'No message waits for a retry in this window.' : `${plural(n, 'message')} ${n === 1 ? 'waits' : 'wait'} for a retry.`),
  action: (n) => `Retry ${n} now`,
  confirm: (n) => `Attempt ${plural(n, 'message')} now instead of at ${n === 1 ? 'its' : 'their'} next retry?`,
  run: async ({ webhookId, window, refreshTimeline }) => {
    const r = await retryNowAction(webhookId, window);
    if (r.ok) setTimeout(refreshTimeline, 2000);
    return r;
  },
  result: (r) => (
    <p className="text-sm text-slate-700" role="status" data-testid="recover-retry-result">
      {`${plural(r.messages, 'message')} made due at ${formatUtcLabel(r.dueAt)}: each is attempted now; one that fails again waits for its next retry.`}
    </p>
  ),
};

const failedAtReceiver: TRecoverKindSpec<TResendCounts & { id: string }> = {
  key: 'resend',
  title: 'Delivered, failed at the receiver',
  what: "Messages the service counts as delivered whose arrival at this console's receiver failed signature verification or got an error answer: each is re-sent once.",
  counted: (n) => (n === 0 ? 'No delivered message failed at the receiver in this window.' : `${plural(n, 'delivered message')} failed at the receiver.`),
  action: (n) => `Re-send ${n} delivered`,
  confirm: (n) => `Re-send ${plural(n, 'message')} the service counts as delivered, once each? Fix the receiver first (e.g. its secret).`,
  run: async ({ webhookId, window, refreshTimeline }) => {
    const r = await resendDeliveredAction(webhookId, window);
    if (r.ok) refreshTimeline();
    return r;
  },
  result: (run) => (
    <p className="text-sm text-slate-700" role="status" data-testid="recover-resend-result">
      {resendSummary(run)}
      <span className="block font-mono text-xs text-slate-500" data-testid="recover-run-id">
        Run {run.id}
      </span>
    </p>
  ),
};

/** The three kinds, in the card's order (a table of specs of different results: each one's run feeds its own result). */
export const RECOVER_KINDS: readonly TRecoverKindSpec<unknown>[] = [failedForGood, waitingForRetry, failedAtReceiver];
