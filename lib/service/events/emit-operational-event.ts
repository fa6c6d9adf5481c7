import type { TOperationalEventType } from '@/lib/constants';
import type { DbOrTx } from '@/lib/db/client';
import { emitEvent } from './emit-event';

// The service's own news about a webhook (EXT event types `webhook.disabled`,
// `message.attempt.exhausted`, `webhook.recovered`), queued like any event inside the transaction
// that changes the webhook's state, signed and retried like every delivery. The fourth,
// `webhook.failing`, has its own data and is sent by lib/service/delivery/failing-warnings.ts.
//
// Loops are cut twice: an event about webhook A is never delivered to A itself, and a message that
// is itself an operational event raises no `message.attempt.exhausted` when its attempts run out
// (two failing webhooks subscribed to each other's news would otherwise feed each other forever).
// `webhook.disabled` and `webhook.recovered` are state changes, so they cannot repeat without one.

/** The webhook an event is about, as the emitter read it (its row locked in the same transaction). */
export type TWebhookState = { id: string; accountId: string; url: string; failingSince: Date | null };

/** The attempt that caused the event, when a delivery did (none for a change through the API). */
export type TCause = {
  messageId: string;
  eventType: string;
  attemptCount: number;
  attemptId: string;
  attemptedAt: Date;
  responseStatusCode: number;
  response: string;
};

export type TOperationalEvent =
  | { type: 'webhook.disabled'; webhook: TWebhookState; reason: string; disabledAt: Date; cause: TCause | null; trigger?: 'delivery' }
  | { type: 'message.attempt.exhausted'; webhook: TWebhookState; cause: TCause }
  | { type: 'webhook.recovered'; webhook: TWebhookState; recoveredAt: Date; cause: TCause | null };

const ERROR_EXCERPT_CHARS = 500;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** What went wrong last, in one line: the status and the start of the answer, or the network error. */
export function lastErrorOf(cause: Pick<TCause, 'responseStatusCode' | 'response'>): string {
  const text = cause.response.replace(/\s+/g, ' ').trim().slice(0, ERROR_EXCERPT_CHARS);
  if (cause.responseStatusCode === 0) return text || 'no response';
  return text ? `${cause.responseStatusCode}: ${text}` : String(cause.responseStatusCode);
}

/** The event's `data`: one shape for all three types, the fields that do not apply are null. */
export function operationalPayload(event: TOperationalEvent) {
  const { webhook } = event;
  const cause = event.cause;
  const failed = cause && cause.responseStatusCode >= 200 && cause.responseStatusCode < 300 ? null : cause;
  return {
    webhookId: webhook.id,
    url: webhook.url,
    reason: event.type === 'webhook.disabled' ? event.reason : null,
    disabledAt: event.type === 'webhook.disabled' ? iso(event.disabledAt) : null,
    recoveredAt: event.type === 'webhook.recovered' ? iso(event.recoveredAt) : null,
    failingSince: iso(webhook.failingSince),
    // A stretch the failing sweep ended is the deliveries' doing, even with none of its attempts kept.
    trigger: cause || (event.type === 'webhook.disabled' && event.trigger) ? ('delivery' as const) : ('api' as const),
    messageId: cause?.messageId ?? null,
    messageEventType: cause?.eventType ?? null,
    attemptCount: cause?.attemptCount ?? null,
    lastAttemptId: cause?.attemptId ?? null,
    lastAttemptAt: iso(cause?.attemptedAt),
    lastResponseStatusCode: cause?.responseStatusCode ?? null,
    lastError: failed ? lastErrorOf(failed) : null,
  };
}

/** Queues the event for every enabled webhook of the account subscribed to it, except the one it is about. */
export async function emitOperationalEvent(tx: DbOrTx, event: TOperationalEvent): Promise<void> {
  const tags = [`webhook:${event.webhook.id}`];
  if (event.cause) tags.push(`message:${event.cause.messageId}`);
  await emitEvent(tx, {
    accountId: event.webhook.accountId,
    eventType: event.type satisfies TOperationalEventType,
    payload: operationalPayload(event),
    tags,
    excludeWebhookId: event.webhook.id,
  });
}
