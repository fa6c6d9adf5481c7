import { env } from '@/lib/env';
import type { TDeliveryJob } from './claim';
import { sendWebhook, type TSendResult } from './send-webhook';

/**
 * One signed POST of a prepared delivery, given DELIVERY_TIMEOUT_MS to answer: the worker renews its
 * lease while it is in flight (lease-keeper.ts), so the timeout may be longer than DELIVERY_LEASE_MS.
 */
export function attemptDelivery(job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }): Promise<TSendResult> {
  const { claim, target } = job;
  return sendWebhook({ url: target.url, messageId: claim.messageId, body: target.payload, secrets: target.secrets, timeoutMs: env.DELIVERY_TIMEOUT_MS });
}
