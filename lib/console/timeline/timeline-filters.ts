import { z } from 'zod';
import { EVENT_TYPES, MESSAGE_STATUSES } from '@/lib/constants';
import { pageQuery, type TSearchParams } from '@/lib/http/page-props';
import { parseQuery } from '@/lib/http/query';
import { ZInstant } from '../instant';
import type { TTimelineFilters } from './timeline-types';

// The timeline's URL filters, one definition for the page and the JSON route it polls: the page
// is forgiving (`.catch`: a bad value in a shared link drops that filter instead of failing the
// page), the route strict (a 400 naming the bad parameter, lib/http/query.ts).

const ZIso = ZInstant.transform((d) => d.toISOString());
const FILTERS = {
  status: z.enum(MESSAGE_STATUSES, { message: `must be one of: ${MESSAGE_STATUSES.join(', ')}` }),
  // The service refuses a type it does not know: named here, not passed on to come back as its error.
  eventType: z
    .string()
    .trim()
    .refine((v) => (EVENT_TYPES as readonly string[]).includes(v), { message: `must be one of: ${EVENT_TYPES.join(', ')}` }),
  after: ZIso,
  before: ZIso,
  pageToken: z.string().min(1).max(2000, { message: 'must be at most 2000 characters' }),
};
const KEYS = Object.keys(FILTERS) as (keyof typeof FILTERS)[];

/** For the JSON route: a bad value is a 400 naming it. */
export const ZTimelineQuery = z.object({
  status: FILTERS.status.optional(),
  eventType: FILTERS.eventType.optional(),
  after: FILTERS.after.optional(),
  before: FILTERS.before.optional(),
  pageToken: FILTERS.pageToken.optional(),
});

/** For the page: a bad value drops that filter. */
export const ZTimelineSearch = z.object(
  Object.fromEntries(KEYS.map((k) => [k, FILTERS[k].optional().catch(undefined)])) as {
    [K in keyof typeof FILTERS]: z.ZodCatch<z.ZodOptional<(typeof FILTERS)[K]>>;
  },
);

/** The page's filters from its searchParams (forgiving). */
export function parseTimelineSearch(params: TSearchParams | URLSearchParams): TTimelineFilters {
  const parsed = pageQuery(params, ZTimelineSearch);
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as TTimelineFilters;
}

/** The route's filters from its query (strict: a 400 names the bad parameter). */
export function parseTimelineQuery(sp: URLSearchParams): TTimelineFilters {
  const parsed = parseQuery(sp, ZTimelineQuery);
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as TTimelineFilters;
}
