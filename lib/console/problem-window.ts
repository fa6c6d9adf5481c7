import { z } from 'zod';
import { ApiError, validationError } from '@/lib/http/errors';
import { DEFAULT_WINDOW_MS } from './find-problems';

// The problems view's date range from the URL: since/until as RFC 3339 or a datetime-local value
// (read as UTC). Absent: the last 7 days. A bad value is a 400 naming it (the API route) — the page
// shows the same message.

const ZInstant = z
  .string()
  .trim()
  .max(40, { message: 'must be a date and time' })
  .transform((v, ctx) => {
    const at = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(v) ? v : `${v}Z`);
    if (Number.isNaN(at) || at < 0 || at > Date.parse('9999-12-31T23:59:59Z')) {
      ctx.addIssue({ code: 'custom', message: 'must be a date and time, e.g. 2026-11-23T12:00:00Z' });
      return z.NEVER;
    }
    return new Date(at);
  });

const ZWindow = z.object({ since: ZInstant.optional(), until: ZInstant.optional(), pageToken: z.string().min(1).max(1000).optional() });

export type TProblemWindow = { since: Date; until: Date; pageToken?: string };

export function parseProblemWindow(params: URLSearchParams, now = new Date()): TProblemWindow {
  const raw = Object.fromEntries(['since', 'until', 'pageToken'].map((k) => [k, params.get(k) || undefined]));
  const parsed = ZWindow.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  const until = parsed.data.until ?? now;
  const since = parsed.data.since ?? new Date(until.getTime() - DEFAULT_WINDOW_MS);
  if (since >= until) {
    throw new ApiError('bad_request', 'since must be before until.', { errors: [{ path: 'since', message: 'must be before until' }] });
  }
  return { since, until, pageToken: parsed.data.pageToken };
}
