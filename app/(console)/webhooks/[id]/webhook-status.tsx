'use client';

import Link from 'next/link';
import { EnabledBadge } from '@/components/console/badge';
import { Timestamp } from '@/components/console/timestamp';
import type { TTimeline, TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import { withReadableTimes } from '@/lib/console/format';
import { pausedSince } from '@/lib/console/webhooks/paused-words';
import { cappedWords } from '@/lib/console/webhooks/capped-words';
import { useTimeline } from './use-timeline';
import { useWebhookStats } from './use-webhook-stats';

// The header's live line: enabled/disabled, where the webhook delivers, and when and why it was
// disabled. It reads the timeline's polled query, so a webhook the service disables (say on a 410
// from the receiver) shows "disabled" within a second, without a reload.

export function WebhookStatus({
  webhookId,
  filters,
  initial,
  knownUrl,
}: {
  webhookId: string;
  filters: TTimelineFilters;
  initial: TTimeline;
  knownUrl: string;
}) {
  const { data } = useTimeline(webhookId, filters, initial);
  const webhook = data.webhook ?? initial.webhook;
  const receiver = data.receiver;
  return (
    <span className="block space-y-1" data-testid="webhook-status">
      <span className="flex flex-wrap items-center gap-2">
        {webhook ? <EnabledBadge disabled={webhook.disabled} paused={webhook.paused} /> : null}
        {receiver ? (
          <span>
            delivers to receiver{' '}
            <Link href={`/receivers/${receiver.id}`} className="font-medium text-indigo-700 hover:underline">
              {receiver.name}
            </Link>
          </span>
        ) : (webhook?.url ?? knownUrl) ? (
          <span>delivers outside this console</span>
        ) : null}
      </span>
      {webhook?.paused && webhook.pausedAt ? (
        <span className="block text-sm text-amber-800" data-testid="paused-reason">
          {capitalize(pausedSince(webhook.pausedAt, webhook.pausedBy, new Date()))} — its messages queue and none is sent until it is resumed; its failing clock
          stands still.
        </span>
      ) : null}
      {webhook?.rateLimit ? <CapLine webhookId={webhookId} rateLimit={webhook.rateLimit} /> : null}
      {webhook?.disabled ? (
        <span className="block text-sm text-rose-800" data-testid="disabled-reason">
          Disabled
          {webhook.disabledAt ? (
            <>
              {' '}
              at <Timestamp value={webhook.disabledAt} /> UTC
            </>
          ) : null}{' '}
          — {webhook.disabledReason ? withReadableTimes(webhook.disabledReason) : 'no reason recorded (disabled by hand, or by a service that does not say).'}
        </span>
      ) : null}
    </span>
  );
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Capped at 20/s — 1,240 waiting, drains in about 1 min": what waits at the cap, from the health figures' backlog. */
function CapLine({ webhookId, rateLimit }: { webhookId: string; rateLimit: number }) {
  const b = useWebhookStats(webhookId, '24h').data?.stats.backlog;
  return (
    <span className="block text-sm text-slate-700" data-testid="rate-cap">
      {capitalize(cappedWords(rateLimit, b ? b.pending + b.sending : null))}: deliveries above it wait their turn, oldest first.
    </span>
  );
}
