import { z } from 'zod';

// A point in time from a URL: an RFC 3339 timestamp, or a time as the console's UTC fields write it
// (`2026-11-23 12:00`, or with a T; read as UTC), within 1970–9999. The console's date filters all
// read their values through this one schema.

const MAX = Date.parse('9999-12-31T23:59:59Z');

export const ZInstant = z
  .string()
  .trim()
  .max(40, { message: 'must be a date and time' })
  .transform((v, ctx) => {
    const t = v.replace(/^(\d{4}-\d\d-\d\d) (?=\d\d:)/, '$1T'); // the fields' space, as RFC 3339 allows it
    const at = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(t) ? t : `${t}Z`);
    if (Number.isNaN(at) || at < 0 || at > MAX) {
      ctx.addIssue({ code: 'custom', message: 'must be a date and time, e.g. 2026-11-23T12:00:00Z' });
      return z.NEVER;
    }
    return new Date(at);
  });
