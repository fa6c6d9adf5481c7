import { z } from 'zod';
import { EVENT_TYPES, MESSAGE_STATUSES } from '@/lib/constants';
import { ZInstant } from '@/lib/console/instant';
import { parseQuery } from '@/lib/http/query';

// The query of the console's exports, strict (unlike the timeline's forgiving filters): a wrong
// value is a 400 naming the parameter, so a ticket never gets a silently unfiltered file.

const ZIncludeDonor = z.enum(['0', '1', 'true', 'false'], { message: 'must be 1 or 0' }).transform((v) => v === '1' || v === 'true');

export const ZTimelineExportQuery = z
  .object({
    format: z.enum(['csv', 'ndjson'], { message: 'must be csv or ndjson' }),
    status: z.enum(MESSAGE_STATUSES, { message: `must be one of: ${MESSAGE_STATUSES.join(', ')}` }).optional(),
    eventType: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
    since: ZInstant.optional(),
    until: ZInstant.optional(),
    includeDonor: ZIncludeDonor.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.since && v.until && v.until <= v.since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after since' });
  });
export type TTimelineExportQuery = z.output<typeof ZTimelineExportQuery>;

export const ZIncludeDonorQuery = z.object({ includeDonor: ZIncludeDonor.optional() });

export function parseTimelineExportQuery(sp: URLSearchParams): TTimelineExportQuery {
  return parseQuery(sp, ZTimelineExportQuery);
}

export function parseIncludeDonor(sp: URLSearchParams): boolean {
  return parseQuery(sp, ZIncludeDonorQuery).includeDonor ?? false;
}

/** A Content-Disposition for a download named `name` (ASCII only, so no encoding games). */
export function attachment(name: string): string {
  return `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}
