import { ApiError } from '@/lib/http/errors';

// The date window of a payload search: `since` and `until` (RFC 3339 or a date), the last 7 days
// by default, at most 31 days wide — the indexes find rows by content; the window keeps a common
// value from reading a year of them.

export const DEFAULT_WINDOW_DAYS = 7;
export const MAX_WINDOW_DAYS = 31;
const DAY_MS = 86_400_000;
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export type TSearchWindow = { since: Date; until: Date };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An instant; a date alone is its day's start (UTC) for since and its end for until (the day included). */
function instant(name: 'since' | 'until', raw: string | null): Date | null | string {
  if (raw === null || raw.trim() === '') return null;
  const text = raw.trim();
  const at = INSTANT.test(text) ? new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text) : null;
  if (!at || Number.isNaN(at.getTime())) return `${name} must be a date or an RFC 3339 timestamp (2026-11-22 or 2026-11-22T10:15:30Z)`;
  return name === 'until' && DATE_ONLY.test(text) ? new Date(at.getTime() + DAY_MS) : at;
}

/** Why the window cannot be searched ({ path, message }), or the window. */
export function searchWindowOf(since: string | null, until: string | null, now = new Date()): TSearchWindow | { path: 'since' | 'until'; message: string } {
  const s = instant('since', since);
  const u = instant('until', until);
  if (typeof s === 'string') return { path: 'since', message: s };
  if (typeof u === 'string') return { path: 'until', message: u };
  const end = u ?? (s ? new Date(Math.min(now.getTime(), s.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS)) : now);
  const start = s ?? new Date(end.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS);
  if (start >= end) return { path: 'since', message: 'since must be before until' };
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  if (days > MAX_WINDOW_DAYS) {
    return { path: 'since', message: `the window from since to until must be at most ${MAX_WINDOW_DAYS} days (it is ${Math.ceil(days)} days)` };
  }
  return { since: start, until: end };
}

/** The window, or a 400 naming the parameter. */
export function searchWindow(params: URLSearchParams, now = new Date()): TSearchWindow {
  const w = searchWindowOf(params.get('since'), params.get('until'), now);
  if ('path' in w) throw new ApiError('bad_request', `${w.message}.`, { errors: [{ path: w.path, message: w.message }] });
  return w;
}
