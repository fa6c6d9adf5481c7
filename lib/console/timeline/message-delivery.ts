import 'server-only';
import type { ConnectApi, TAttempt, TMessage } from '@/lib/console/connect-api';
import { cachedAttempts } from './attempts-of-message';
import { stoppedOf, type TJoinDelivery } from './join-delivery';
import { responseGone } from '../retention/body-gone';
import type { TEnvironmentName } from '../staff/session';
import type { TTimelineAttempt } from './timeline-types';
import { isoTime } from './iso-time';

// What the API says of a message's delivery at one webhook (its status, attempts, next attempt),
// in the shape the join with the receipts takes (join-delivery.ts).

export function toTimelineAttempt(a: TAttempt): TTimelineAttempt {
  return {
    id: a.id,
    timestamp: isoTime(a.timestamp),
    status: a.status,
    responseStatusCode: a.responseStatusCode,
    responseDurationMs: a.responseDurationMs,
    triggerType: a.triggerType,
    url: a.url,
    ...(a.response !== undefined ? { response: a.response } : {}),
    ...(a.responsePurged ? { responseGone: responseGone(a.responsePurged)! } : {}),
  };
}

/** The delivery as the join needs it, from what the message carries (its attempts, or its newest one); null when it carries neither. */
export function carriedDelivery(m: TMessage): TJoinDelivery | null {
  const nextAttempt = m.nextAttempt ? isoTime(m.nextAttempt) : null;
  if (m.attempts !== undefined)
    return { status: m.status, attemptCount: m.attemptCount, nextAttempt, attempts: m.attempts.map(toTimelineAttempt), complete: true, ...stoppedOf(m) };
  if (m.lastAttempt === undefined) return null;
  return {
    status: m.status,
    attemptCount: m.attemptCount,
    nextAttempt,
    attempts: m.lastAttempt ? [toTimelineAttempt(m.lastAttempt)] : [],
    complete: m.attemptCount === 0,
    ...stoppedOf(m),
  };
}

/** What the API says of this message at this webhook, as the join needs it. */
export async function deliveryOf(envName: TEnvironmentName, api: ConnectApi, webhookId: string, m: TMessage): Promise<TJoinDelivery> {
  const carried = carriedDelivery(m);
  if (carried) return carried;
  const attempts = await cachedAttempts(envName, api, webhookId, m);
  return {
    status: m.status,
    attemptCount: m.attemptCount,
    nextAttempt: m.nextAttempt ? isoTime(m.nextAttempt) : null,
    attempts: attempts.map(toTimelineAttempt),
    complete: true,
    ...stoppedOf(m),
  };
}
