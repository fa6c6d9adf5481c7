import { z } from 'zod';
import { EVENT_TYPES, ID_PREFIX, MESSAGE_STATUSES } from '@/lib/constants';
import { ZMetadata } from '@/lib/service/connects/schemas';

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 1000;
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The key bytes of a `whsec_` secret (strict, padded base64), or null when it is not one. */
export function secretBytes(secret: string): Buffer | null {
  if (!secret.startsWith(ID_PREFIX.webhookSecret)) return null;
  const b64 = secret.slice(ID_PREFIX.webhookSecret.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  const bytes = Buffer.from(b64, 'base64');
  return bytes.toString('base64') === b64 ? bytes : null;
}

export const ZWebhookUrl = z
  .string({ message: 'must be a string' })
  .max(WEBHOOK_URL_MAX, { message: `must be at most ${WEBHOOK_URL_MAX} characters` })
  .refine(isHttpUrl, { message: 'must be an absolute http(s) URL' });

export const ZEventTypes = z
  .array(z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }), { message: 'must be an array of event types' })
  .min(1, { message: 'must name at least one event type' })
  .transform((types) => [...new Set(types)]);

export const ZDescription = z
  .string({ message: 'must be a string' })
  .max(WEBHOOK_DESCRIPTION_MAX, { message: `must be at most ${WEBHOOK_DESCRIPTION_MAX} characters` });

export const ZWebhookSecret = z.string({ message: 'must be a string' }).refine(
  (s) => {
    const bytes = secretBytes(s);
    return bytes !== null && bytes.length >= SECRET_MIN_BYTES && bytes.length <= SECRET_MAX_BYTES;
  },
  { message: `must be whsec_ followed by the base64 of ${SECRET_MIN_BYTES}-${SECRET_MAX_BYTES} random bytes` },
);

export const RATE_LIMIT_MAX = 1000;

/** EXT: deliveries per second, across every worker; null: no cap. */
export const ZRateLimit = z
  .int({ message: `must be a whole number of deliveries per second (1-${RATE_LIMIT_MAX}) or null` })
  .min(1, { message: `must be a whole number of deliveries per second (1-${RATE_LIMIT_MAX}) or null` })
  .max(RATE_LIMIT_MAX, { message: `must be a whole number of deliveries per second (1-${RATE_LIMIT_MAX}) or null` })
  .nullable();

export const ZCreateWebhook = z.strictObject({
  url: ZWebhookUrl,
  eventTypes: ZEventTypes,
  description: ZDescription.default(''),
  disabled: z.boolean({ message: 'must be true or false' }).default(false),
  secret: ZWebhookSecret.optional(),
  metadata: ZMetadata.optional(),
  rateLimit: ZRateLimit.default(null),
});
export type TCreateWebhook = z.output<typeof ZCreateWebhook>;

export const ZUpdateWebhook = z
  .strictObject({
    url: ZWebhookUrl.optional(),
    eventTypes: ZEventTypes.optional(),
    description: ZDescription.optional(),
    disabled: z.boolean({ message: 'must be true or false' }).optional(),
    paused: z.boolean({ message: 'must be true or false' }).optional(),
    rateLimit: ZRateLimit.optional(),
    metadata: ZMetadata.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'send at least one of url, eventTypes, description, disabled, paused, rateLimit, metadata',
  });
export type TUpdateWebhook = z.output<typeof ZUpdateWebhook>;

export const ZTestEvent = z.strictObject({
  eventType: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
});

const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** An RFC 3339 timestamp within 1970–9999 (what the API stores and returns). */
export const ZTimestamp = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:15:30.123Z' }).refine(
  (v) => {
    const at = Date.parse(v);
    return at >= 0 && at <= LATEST;
  },
  { message: 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z' },
);

/** EXT filters of the message list; every one optional, each wrong value a 400. */
export const ZMessageFilters = z.object({
  status: z.enum(MESSAGE_STATUSES, { message: `must be one of: ${MESSAGE_STATUSES.join(', ')}` }).optional(),
  eventType: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
  before: ZTimestamp.optional(),
  after: ZTimestamp.optional(),
  /** true: each message carries its payload, as Get message does (a list reads no bodies otherwise). */
  withContent: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  /** true: each message carries every attempt to this webhook, oldest first, without response bodies (one query for the page). */
  withAttempts: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
export type TMessageFilters = z.output<typeof ZMessageFilters>;
