import { z } from 'zod';
import { ApiError, validationError } from '@/lib/http/errors';
import { decodeCursor, DEFAULT_WINDOW_MS, type TProblemsCursor } from './problem-types';
import { ZInstant } from '../instant';

// The problems view's date range from the URL: since/until as RFC 3339 or a datetime-local value
// (read as UTC), or a preset (`last=1h|24h|7d`: that long before until, or now). Absent: the last
// 7 days. A bad value is a 400 naming it (the API route) — the page shows the same message.

export const PROBLEM_PRESETS = { '1h': 3600_000, '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const;
export type TProblemPreset = keyof typeof PROBLEM_PRESETS;
const PRESET_NAMES = Object.keys(PROBLEM_PRESETS) as TProblemPreset[];

const ZWindow = z
  .object({
    since: ZInstant.optional(),
    until: ZInstant.optional(),
    last: z.enum(PRESET_NAMES, { message: `must be one of: ${PRESET_NAMES.join(', ')}` }).optional(),
    pageToken: z.string().min(1).max(4000).optional(),
  })
  .refine((w) => !(w.last && w.since), { path: ['last'], message: 'cannot be combined with since' });

export type TProblemWindow = { since: Date; until: Date; last?: TProblemPreset; pageToken?: string; cursor?: TProblemsCursor };

export function parseProblemWindow(params: URLSearchParams, now = new Date()): TProblemWindow {
  const raw = Object.fromEntries(['since', 'until', 'last', 'pageToken'].map((k) => [k, params.get(k) || undefined]));
  const parsed = ZWindow.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  const until = parsed.data.until ?? now;
  // A window reaching back before 1970 (the service's first instant) starts there.
  const since = parsed.data.since ?? new Date(Math.max(0, until.getTime() - (parsed.data.last ? PROBLEM_PRESETS[parsed.data.last] : DEFAULT_WINDOW_MS)));
  if (since >= until) {
    throw new ApiError('bad_request', 'since must be before until.', { errors: [{ path: 'since', message: 'must be before until' }] });
  }
  // Decoded here, so a forged token is a 400 (route) or a readable message (page), never a crash.
  const cursor = parsed.data.pageToken ? decodeCursor(parsed.data.pageToken) : undefined;
  return { since, until, last: parsed.data.last, pageToken: parsed.data.pageToken, cursor };
}
