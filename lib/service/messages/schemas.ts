import { z } from 'zod';
import { hasWords, jsonbCanHold, payloadPathProblem } from '@/lib/db/search-json';
import { EVENT_TYPES } from '@/lib/constants';
import { ZTimestamp } from '@/lib/service/webhooks/schemas';

export const TAG_MAX = 300;
export const PAYLOAD_FILTER_MAX = 500;
/** The widest window a payload search covers: the GIN indexes find rows by content, not by time. */
export const PAYLOAD_WINDOW_DAYS = 31;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** EXT filters of GET /v1/messages; every one optional, each wrong value a 400 naming it. */
export const ZAccountMessageFilters = z
  .object({
    tag: z
      .string()
      .max(TAG_MAX, { message: `must be at most ${TAG_MAX} characters` })
      .optional(),
    eventType: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
    before: ZTimestamp.optional(),
    after: ZTimestamp.optional(),
    /** false: no webhook has had the message delivered (none subscribed included); true: at least one has. */
    delivered: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .transform((v) => v === 'true')
      .optional(),
    /** Payload search (with payloadEquals): a dotted path of keys, `data.fund.id`. */
    payloadPath: z
      .string()
      .max(PAYLOAD_FILTER_MAX)
      .superRefine((v, ctx) => {
        const problem = payloadPathProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** The JSON value at payloadPath: `15000`, `"fidelity-charitable"`, `true`, `null` (compared as JSON). */
    payloadEquals: z
      .string()
      .max(PAYLOAD_FILTER_MAX)
      .refine((v) => isJson(v), { message: 'must be a JSON value: a number, a "quoted string", true, false, null, an object or an array' })
      .refine((v) => jsonbCanHold(v), { message: 'cannot be searched: no \\u0000 or escaped surrogates, no number past ±1e9999' })
      .optional(),
    /** Payload search: these words, in this order, among the payload's strings and numbers (any case). */
    payloadText: z.string().max(PAYLOAD_FILTER_MAX).refine(hasWords, { message: 'must contain a letter or a digit' }).optional(),
    /** true: each result lists the webhooks the message was queued for (`webhookIds`), in one query for the page. */
    withWebhooks: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .transform((v) => v === 'true')
      .optional(),
  })
  .superRefine((f, ctx) => {
    if ((f.payloadPath === undefined) !== (f.payloadEquals === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [f.payloadPath === undefined ? 'payloadPath' : 'payloadEquals'],
        message: 'payloadPath and payloadEquals go together',
      });
    }
    if (f.payloadPath === undefined && f.payloadText === undefined) return;
    if (f.after === undefined) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: `is required with a payload filter (a window of at most ${PAYLOAD_WINDOW_DAYS} days)` });
      return;
    }
    const days = ((f.before ? Date.parse(f.before) : Date.now()) - Date.parse(f.after)) / 86_400_000;
    if (days > PAYLOAD_WINDOW_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['after'],
        message: `must be at most ${PAYLOAD_WINDOW_DAYS} days before before (or now) with a payload filter; the window is ${Math.ceil(days)} days`,
      });
    }
  });
export type TAccountMessageFilters = z.output<typeof ZAccountMessageFilters>;

/** EXT query of GET /v1/messages/{id}. */
export const ZAccountMessageQuery = z.object({
  /** true: each delivery with every attempt (oldest first, no bodies) and its newest attempt's response: a case in one call. */
  withAttempts: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
