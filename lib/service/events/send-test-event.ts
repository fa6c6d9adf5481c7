import { TEST_EVENT_TAG, type TEventType } from '@/lib/constants';
import { ApiError } from '@/lib/http/errors';
import { emitEvent } from './emit-event';
import { examplePayload } from './example-payloads';
import { getMessage } from '@/lib/service/messages/get-message';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import type { TMessageJson } from '@/lib/service/webhooks/webhook-json';
import { wakingTransaction } from '@/lib/service/delivery/wake-workers';

/**
 * A real message for this webhook alone, carrying the example payload of `eventType` (default:
 * the first type it subscribes to); the worker delivers it like any other.
 */
export async function sendTestEvent(accountId: string, webhookId: string, eventType?: TEventType): Promise<TMessageJson> {
  return wakingTransaction(async (tx) => {
    const webhook = await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
    if (webhook.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before sending a test event.');
    const subscribed = webhook.eventTypes as TEventType[];
    const type = eventType ?? subscribed[0];
    if (!subscribed.includes(type)) {
      throw new ApiError('bad_request', `This webhook does not subscribe to ${type}; it subscribes to ${subscribed.join(', ')}.`, {
        errors: [{ path: 'eventType', message: 'not one of the webhook’s event types' }],
      });
    }
    const emitted = await emitEvent(tx, { accountId, eventType: type, payload: examplePayload(type), tags: [TEST_EVENT_TAG], webhookId });
    if (!emitted) throw new Error(`test event for ${webhookId} was not queued`);
    return getMessage(accountId, webhookId, emitted.messageId, { db: tx });
  });
}
