import { z } from 'zod';
import { ApiError } from '@/lib/http/errors';
import { parseQuery } from '@/lib/http/query';
import { dateIn, isDate, readableDays } from './day-range';

// The query of GET /api/reconciliation and the page: a day (YYYY-MM-DD, today in CONSOLE_TIME_ZONE
// by default), a nonprofit (its id or EIN), a format; the page's list also which grants (those with
// a difference, or all) and which page of them. Strict: a wrong value is a 400 naming it (the page
// says it in words).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ZReconQuery = z.object({
  date: z.string().trim().refine(isDate, { message: 'must be a date, YYYY-MM-DD' }).optional(),
  nonprofit: z
    .string()
    .trim()
    .refine((v) => v === '' || UUID.test(v) || /^\d{2}-?\d{7}$/.test(v), { message: 'must be a nonprofit id (UUID) or a 9-digit EIN' })
    .transform((v) => v.replace(/^(\d{2})-(\d{7})$/, '$1$2') || undefined)
    .optional(),
  format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json'),
  includeDonor: z
    .enum(['0', '1', 'true', 'false'], { message: 'must be 1 or 0' })
    .transform((v) => v === '1' || v === 'true')
    .default(false),
});

export function parseReconQuery(sp: URLSearchParams, timeZone: string) {
  const q = parseQuery(sp, ZReconQuery);
  // A day the service cannot read whole is named here, not passed on to come back as its error.
  const { first, last } = readableDays(timeZone);
  if (q.date && (q.date < first || q.date > last)) {
    const message = `must be a date from ${first} to ${last}`;
    throw new ApiError('bad_request', `Invalid query: date: ${message}.`, { errors: [{ path: 'date', message }] });
  }
  return { ...q, date: q.date ?? dateIn(timeZone), timeZone };
}

export const ZReconListQuery = z.object({
  show: z.enum(['differences', 'all'], { message: 'must be differences or all' }).default('differences'),
  page: z
    .string()
    .regex(/^\d{1,6}$/, { message: 'must be a page number, 1 or more' })
    .transform(Number)
    .refine((n) => n >= 1, { message: 'must be a page number, 1 or more' })
    .default(1),
});

/** The page's query: the day's, and which grants its list shows. */
export function parseReconPageQuery(sp: URLSearchParams, timeZone: string) {
  return { ...parseReconQuery(sp, timeZone), ...parseQuery(sp, ZReconListQuery) };
}
