import { z } from 'zod';
import { EVENT_TYPES } from '@/lib/constants';
import { ZTimestamp } from '@/lib/service/webhooks/schemas';

export const TAG_MAX = 300;

/** EXT filters of GET /v1/messages; every one optional, each wrong value a 400 naming it. */
export const ZAccountMessageFilters = z.object({
  tag: z.string().max(TAG_MAX, { message: `must be at most ${TAG_MAX} characters` }).optional(),
  eventType: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
  before: ZTimestamp.optional(),
  after: ZTimestamp.optional(),
  /** false: no webhook has had the message delivered (none subscribed included); true: at least one has. */
  delivered: z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true').optional(),
});
export type TAccountMessageFilters = z.output<typeof ZAccountMessageFilters>;

/** EXT query of GET /v1/messages/{id}. */
export const ZAccountMessageQuery = z.object({
  /** true: each delivery with every attempt (oldest first, no bodies) and its newest attempt's response: a case in one call. */
  withAttempts: z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true').optional(),
});
