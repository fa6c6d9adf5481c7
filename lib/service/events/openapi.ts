import { z } from 'zod';
import { EVENT_TYPES, type TEventType } from '@/lib/constants';
import { ZInstantOut, sameShape } from '@/lib/openapi/shared-schemas';
import { ZGrant } from '@/lib/service/grants/openapi';
import type { operationalPayload } from './emit-operational-event';
import type { TWebhookFailingData } from './failing-event';

// The events the service sends, for /openapi.json: each event type's `data` and the document's
// `webhooks` (what a subscribed endpoint receives, signed per Standard Webhooks).

const ID = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]{27}$`));

/** The `data` of `webhook.failing`. */
export const ZWebhookFailingData = z
  .strictObject({
    webhookId: ID('ep_').meta({ description: 'The failing webhook (never the one the event is delivered to).' }),
    url: z.string(),
    failingSince: ZInstantOut.meta({ description: 'Start of the failing stretch: its first failure, with no success since.' }),
    disablesAt: ZInstantOut.meta({
      description:
        '`failingSince` + DELIVERY_DISABLE_AFTER_MS: when the webhook is disabled, whether or not an attempt is due then, unless one succeeds first.',
    }),
    thresholdPercent: z
      .union([z.literal(50), z.literal(75), z.literal(90)])
      .meta({ description: 'The share of the disable threshold the stretch has passed; each is sent once per stretch.' }),
    lastError: z
      .string()
      .nullable()
      .meta({ description: 'Its newest failure in one line (status and the start of the answer, or the network error), at most 500 characters.' }),
    waitingMessages: z.int().meta({ description: 'Its messages waiting for an attempt (pending, or being sent).', example: 41 }),
  })
  .meta({ id: 'WebhookFailingData' });
sameShape<Omit<TWebhookFailingData, 'thresholdPercent'>, Omit<z.output<typeof ZWebhookFailingData>, 'thresholdPercent'>>(true);

/** The `data` of the operational events (EXT): one shape for the three, fields that do not apply are null. */
export const ZOperationalEventData = z
  .strictObject({
    webhookId: ID('ep_').meta({ description: 'The webhook the event is about (never the one it is delivered to).' }),
    url: z.string(),
    reason: z.string().nullable().meta({ description: 'webhook.disabled: why.' }),
    disabledAt: ZInstantOut.nullable(),
    recoveredAt: ZInstantOut.nullable(),
    failingSince: ZInstantOut.nullable(),
    trigger: z.enum(['delivery', 'api']).meta({ description: 'A delivery attempt caused it, or a change through the API.' }),
    messageId: ID('msg_').nullable(),
    messageEventType: z.string().nullable(),
    attemptCount: z.int().nullable(),
    lastAttemptId: ID('atmpt_').nullable(),
    lastAttemptAt: ZInstantOut.nullable(),
    lastResponseStatusCode: z.int().nullable(),
    lastError: z
      .string()
      .nullable()
      .meta({ description: 'The last failure in one line (status and the start of the answer, or the network error), at most 500 characters.' }),
  })
  .meta({ id: 'OperationalEventData' });
sameShape<ReturnType<typeof operationalPayload>, z.output<typeof ZOperationalEventData>>(true);

/** The `data` of each event type: adding an event type to EVENT_TYPES fails to compile until it has one. */
const EVENT_DATA = {
  'grant.succeeded': ZGrant,
  'webhook.failing': ZWebhookFailingData,
  'webhook.disabled': ZOperationalEventData,
  'message.attempt.exhausted': ZOperationalEventData,
  'webhook.recovered': ZOperationalEventData,
} satisfies Record<TEventType, z.ZodType>;

const STANDARD_WEBHOOK_HEADERS = z.object({
  'webhook-id': ID('msg_').meta({ description: 'The message id, the same on every retry.' }),
  'webhook-timestamp': z.string().regex(/^\d+$/).meta({ description: 'Unix seconds of this attempt.' }),
  'webhook-signature': z.string().meta({
    description:
      '`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active.',
  }),
  'svix-id': z.string().meta({ description: 'Same as webhook-id.' }),
  'svix-timestamp': z.string().meta({ description: 'Same as webhook-timestamp.' }),
  'svix-signature': z.string().meta({ description: 'Same as webhook-signature.' }),
});

/** The document's `webhooks`: what a subscribed endpoint receives, per event type. */
export function eventWebhooks() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replace(/\W/g, '_')}`,
          summary: `The ${type} event`,
          description:
            'Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.',
          tags: ['Events'],
          requestParams: { header: STANDARD_WEBHOOK_HEADERS },
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: z
                  .strictObject({ type: z.literal(type), timestamp: ZInstantOut, data: EVENT_DATA[type] })
                  .meta({ id: `Event_${type.replace(/\W/g, '_')}` }),
              },
            },
          },
          responses: { '2XX': { description: 'Received.' }, default: { description: 'Not received: retried on the schedule.' } },
        },
      },
    ]),
  );
}
