'use client';

import { useState, type FormEvent } from 'react';
import { useBusy } from '@/components/console/use-busy';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCallout } from '@/components/console/callout';
import { Button, Input } from '@/components/console/form';
import { Can } from '@/components/console/role';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import { cappedWords } from '@/lib/console/webhooks/capped-words';
import type { TTimeline, TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import { setWebhookRateLimitAction } from './actions';
import { useTimeline, webhookQueriesKey } from './use-timeline';
import { useWebhookStats } from './use-webhook-stats';

// The settings card's "Rate cap" row (EXT `rateLimit`, deliveries per second): the cap in words with
// what waits at it now ("capped at 20/s — 1,240 waiting, drains in about 1 min", the backlog of the
// health figures' query), and for operators a form that sets, changes or removes it (audited as
// webhook.rate-limit). A service whose webhook carries no `rateLimit` shows that it has none to set.
// The cap is the polled webhook's (the timeline's query, as the header's line): one set elsewhere — the
// API, another person — shows within a poll, and the field follows it unless a person is typing.

type TFeedback = { kind: 'notice'; text: string } | { kind: 'error'; error: TErrorInfo } | null;

const asField = (rateLimit: number | null | undefined) => (rateLimit ? String(rateLimit) : '');

export function RateCapSetting({ webhookId, filters, initial }: { webhookId: string; filters: TTimelineFilters; initial: TTimeline }) {
  const queryClient = useQueryClient();
  const rateLimit = (useTimeline(webhookId, filters, initial).data.webhook ?? initial.webhook)?.rateLimit;
  const stats = useWebhookStats(webhookId, '24h').data?.stats;
  const waiting = stats ? stats.backlog.pending + stats.backlog.sending : null;
  const [value, setValue] = useState(asField(rateLimit));
  const [shown, setShown] = useState(rateLimit);
  const [saving, startSave] = useBusy();
  const [feedback, setFeedback] = useState<TFeedback>(null);
  if (rateLimit !== shown) {
    // The cap changed under the field: it follows, unless what is in it is a person's own (it differs from the cap it showed).
    setShown(rateLimit);
    if (value === asField(shown)) setValue(asField(rateLimit));
  }
  if (rateLimit === undefined) return <span className="text-slate-500">not available: this service has no rate cap</span>;

  const save = (next: number | null) =>
    startSave(async () => {
      setFeedback(null);
      const r = await setWebhookRateLimitAction(webhookId, next);
      if (r.ok) {
        await queryClient.invalidateQueries({ queryKey: webhookQueriesKey(webhookId) });
        setFeedback({ kind: 'notice', text: r.notice ?? 'Saved.' });
      } else setFeedback({ kind: 'error', error: r.error });
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Sent as typed: the action names what is wrong with 0, 2.5 or 5000 (a number field lets them through).
    save(value.trim() === '' ? null : Number(value));
  };

  return (
    <span className="block space-y-2" data-testid="rate-cap-setting">
      <span className="block" data-testid="rate-cap-words">
        {rateLimit ? cappedWords(rateLimit, waiting) : 'none — deliveries go out as fast as the worker sends them'}
      </span>
      <Can min="operator">
        <form className="flex flex-wrap items-center gap-2" onSubmit={submit} aria-label="Rate cap" noValidate>
          <label htmlFor={`rate-cap-${webhookId}`} className="text-xs text-slate-700">
            Deliveries per second
          </label>
          <Input
            id={`rate-cap-${webhookId}`}
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            placeholder="no cap"
            className="w-28"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            invalid={feedback?.kind === 'error'}
          />
          <Button type="submit" size="sm" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : 'Save cap'}
          </Button>
          {rateLimit ? (
            <Button size="sm" variant="ghost" onClick={() => save(null)} aria-disabled={saving || undefined}>
              Remove cap
            </Button>
          ) : null}
        </form>
        {feedback?.kind === 'notice' ? (
          <span role="status" className="block text-xs text-emerald-800">
            {feedback.text}
          </span>
        ) : feedback?.kind === 'error' ? (
          <ErrorCallout title="The rate cap was not saved" error={feedback.error} />
        ) : null}
      </Can>
    </span>
  );
}
