import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';
import { recordManualAttempt } from '@/lib/service/delivery/record-manual-attempt';
import { sendWebhook } from '@/lib/service/delivery/send-webhook';
import { getDelivery } from '@/lib/service/messages/get-message';
import { activeSecrets } from '@/lib/service/webhooks/webhook-secrets';
import { attemptToJson, type TAttemptJson } from '@/lib/service/webhooks/webhook-json';

/** Delivers the message to the webhook now (a `manual` attempt, outside the schedule) and records it. */
export async function resendMessage(accountId: string, webhookId: string, messageId: string): Promise<TAttemptJson> {
  const db = await getDb();
  const { webhook, delivery, payload, payloadPurgedAt } = await getDelivery(accountId, webhookId, messageId, { db });
  if (payloadPurgedAt) {
    throw new ApiError(
      'conflict',
      `This message's payload is gone (purged or erased on ${payloadPurgedAt.toISOString().slice(0, 10)}): there is nothing to resend.`,
    );
  }
  if (webhook.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before resending a message.');
  if (webhook.pausedAt) throw new ApiError('conflict', 'This webhook is paused; resume it before resending a message.');
  const secrets = await activeSecrets(db, webhookId);
  const result = await sendWebhook({ url: webhook.url, messageId, body: payload, secrets, timeoutMs: env.DELIVERY_TIMEOUT_MS });
  const attempt = await recordManualAttempt({ deliveryId: delivery.id, messageId, webhookId, accountId, url: webhook.url }, result);
  return attemptToJson(attempt, { withResponse: true });
}
