import { ID_PREFIX } from '@/lib/constants';
import { prefixedId } from '@/lib/ids';
import type { TSendResult } from './send-webhook';

/** Where an attempt went: the delivery it tried and the address it was sent to. */
export type TAttemptTarget = { deliveryId: string; messageId: string; webhookId: string; accountId: string; url: string };

/** The row of one attempt (scheduled by the worker, or manual: a resend or a recover run's). */
export function attemptValues(target: TAttemptTarget, result: TSendResult, triggerType: 'scheduled' | 'manual') {
  return {
    id: prefixedId(ID_PREFIX.attempt),
    deliveryId: target.deliveryId,
    messageId: target.messageId,
    webhookId: target.webhookId,
    accountId: target.accountId,
    url: target.url,
    createdAt: result.startedAt,
    status: result.ok ? 'success' : 'failed',
    responseStatusCode: result.statusCode,
    responseDurationMs: result.durationMs,
    response: result.response,
    triggerType,
  };
}

export type TAttemptValues = ReturnType<typeof attemptValues>;
