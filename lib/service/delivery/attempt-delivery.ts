import { env } from '@/lib/env';
import type { TDeliveryJob } from './claim';
import { sendWebhook, type TSendResult } from './send-webhook';

/**
 * The request timeout a worker uses: DELIVERY_TIMEOUT_MS, but always well inside the lease, so a
 * live worker's lease never runs out mid-attempt (which would let another worker send it again).
 */
export function attemptTimeoutMs(): number {
  return Math.min(env.DELIVERY_TIMEOUT_MS, Math.floor(env.DELIVERY_LEASE_MS * 0.75));
}

/** One signed POST of a prepared delivery. */
export function attemptDelivery(job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }): Promise<TSendResult> {
  const { claim, target } = job;
  return sendWebhook({ url: target.url, messageId: claim.messageId, body: target.payload, secrets: target.secrets, timeoutMs: attemptTimeoutMs() });
}
