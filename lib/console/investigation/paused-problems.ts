import { pausedSince } from '../webhooks/paused-words';
import type { TTimelineWebhook } from '../timeline/timeline-types';
import { isProblem } from '../timeline/reconcile';
import type { TProblemItem } from './problem-types';

// A paused webhook on the problems view (issue 53.2): its undelivered messages are waiting because
// it is paused — not sent yet, not a failure — so they are no problem rows and no "retrying" count;
// the view says the pause instead, in the words of the webhook page and the case ("paused since
// 14:02 UTC by ops@…"). What failed for good before the pause stays a problem.

/** Paused and not disabled (a disabled webhook's messages are the disabling's story). */
export const isPausedWebhook = (w: Pick<TTimelineWebhook, 'paused' | 'pausedAt' | 'disabled'>): boolean => Boolean(w.paused && w.pausedAt && !w.disabled);

/** The ids of the paused webhooks among `webhooks`. */
export const pausedIds = (webhooks: readonly TTimelineWebhook[]): Set<string> => new Set(webhooks.filter(isPausedWebhook).map((w) => w.id));

/** A problem row, and not a message waiting behind its webhook's pause (pending: not sent yet). */
export function isProblemNotPaused(paused: Set<string>) {
  return (item: TProblemItem): boolean => isProblem(item) && !(paused.has(item.webhookId) && (item.status === 'pending' || item.status === 'sending'));
}

/** The paused webhooks, each with its sentence: "paused since 14:02 UTC by ops@example.org: its undelivered messages are not sent yet …". */
export function pausedNotes(webhooks: readonly TTimelineWebhook[], now: Date): { webhookId: string; name: string; sentence: string }[] {
  return webhooks.filter(isPausedWebhook).map((w) => ({
    webhookId: w.id,
    name: w.description || w.url,
    sentence: `${pausedSince(w.pausedAt!, w.pausedBy, now)}: its undelivered messages are not sent yet, waiting (not failing), and go out when it is resumed`,
  }));
}
