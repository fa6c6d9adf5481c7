import 'server-only';
import { ConnectApiError, isUnsupported, type ConnectApi, type TAccountMessage, type TMessage } from '@/lib/console/connect-api';
import { mapLimit } from '../map-limit';
import type { TTimelineWebhook } from '../timeline/timeline-types';

// A case's message as the account sees it, per webhook of the account (build-case.ts).

/** A 404 that is the thing missing, not the endpoint (an unsupported extension). */
export const notFound = (err: unknown) => err instanceof ConnectApiError && err.status === 404 && !err.unsupported;

export type TMessageHead = { eventId: string | null; eventType: string; timestamp: string; tags: string[]; payload: unknown };

/** `attempts` and `lastAttempt` (with its response) when the service sent them with the message (EXT withAttempts). */
export type TPerWebhook = {
  webhook: TTimelineWebhook;
  message:
    | (Pick<TMessage, 'status' | 'attemptCount' | 'nextAttempt'> & Pick<Partial<TMessage>, 'attempts' | 'lastAttempt' | 'retriesStopped' | 'recoverRunId'>)
    | null;
};

/** The message as the account sees it, per webhook: Get message (EXT) or, without it, one Get per webhook. */
export async function messageAcrossWebhooks(
  api: ConnectApi,
  id: string,
  webhooks: TTimelineWebhook[],
): Promise<{ head: TMessageHead | null; per: TPerWebhook[] }> {
  let account: TAccountMessage | null = null;
  try {
    account = await api.get('/v1/messages/{id}', { params: { path: { id }, query: { withAttempts: 'true' } } });
  } catch (err) {
    if (notFound(err)) return { head: null, per: webhooks.map((webhook) => ({ webhook, message: null })) };
    if (!isUnsupported(err)) throw err;
  }
  if (account) {
    const byWebhook = new Map(account.deliveries.map((d) => [d.webhookId, d]));
    return {
      head: {
        eventId: account.eventId ?? null,
        eventType: account.eventType,
        timestamp: account.timestamp,
        tags: account.tags ?? [],
        payload: account.payload,
      },
      per: webhooks.map((webhook) => ({ webhook, message: byWebhook.get(webhook.id) ?? null })),
    };
  }
  const found: (TMessage | null)[] = await mapLimit(webhooks, 6, (w) =>
    api
      .get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: w.id, messageId: id } } })
      .catch((err) => (notFound(err) ? null : Promise.reject(err))),
  );
  const first = found.find((m) => m !== null);
  return {
    head: first
      ? { eventId: first.eventId ?? null, eventType: first.eventType, timestamp: first.timestamp, tags: first.tags ?? [], payload: first.payload }
      : null,
    per: webhooks.map((webhook, i) => ({ webhook, message: found[i] })),
  };
}
