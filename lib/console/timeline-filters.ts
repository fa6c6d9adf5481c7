import { z } from 'zod';
import { MESSAGE_STATUSES } from '@/lib/constants';
import { ZInstant } from './instant';
import type { TTimelineFilters } from './timeline-types';

// The timeline's URL filters, parsed once for the page and the JSON route it polls. Forgiving
// (`.catch`): a bad value in a shared link drops that filter instead of failing the page.

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const ZIso = ZInstant.transform((d) => d.toISOString());

export const ZTimelineSearch = z.object({
  status: optional(z.enum(MESSAGE_STATUSES)),
  eventType: optional(z.string().trim().min(1).max(100)),
  after: optional(ZIso),
  before: optional(ZIso),
  pageToken: optional(z.string().min(1).max(2000)),
});

type TSearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

export function parseTimelineSearch(params: TSearchParams): TTimelineFilters {
  const get = (k: string) => {
    const v = params instanceof URLSearchParams ? params.get(k) : params[k];
    const one = Array.isArray(v) ? v[0] : v;
    return one === '' || one === null ? undefined : one;
  };
  const parsed = ZTimelineSearch.parse(Object.fromEntries(['status', 'eventType', 'after', 'before', 'pageToken'].map((k) => [k, get(k)])));
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as TTimelineFilters;
}
