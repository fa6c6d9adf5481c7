import { z } from 'zod';

// A point in time from a URL: an RFC 3339 timestamp or a datetime-local value (read as UTC), within
// 1970–9999. The console's date filters all read their values through this one schema.

const MAX = Date.parse('9999-12-31T23:59:59Z');

export const ZInstant = z
  .string()
  .trim()
  .max(40, { message: 'must be a date and time' })
  .transform((v, ctx) => {
    const at = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(v) ? v : `${v}Z`);
    if (Number.isNaN(at) || at < 0 || at > MAX) {
      ctx.addIssue({ code: 'custom', message: 'must be a date and time, e.g. 2026-11-23T12:00:00Z' });
      return z.NEVER;
    }
    return new Date(at);
  });
