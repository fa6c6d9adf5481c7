import { z } from 'zod';
import { validationError } from '@/lib/http/errors';
import { ZInstant } from '../instant';

// The window of a console-side re-send: `since` (required, not in the future) and `until`
// (optional, after `since`; now when left out), at most 14 days apart, as the service's recover
// window. Each wrong value is a 400 naming its field.

export const RESEND_MAX_WINDOW_DAYS = 14;
const MAX_WINDOW_MS = RESEND_MAX_WINDOW_DAYS * 86_400_000;

export type TResendWindow = { since: Date; until: Date };

const fields = { since: ZInstant, until: ZInstant.optional() };

function toWindow(v: { since: Date; until?: Date }, ctx: z.RefinementCtx): TResendWindow {
  const now = new Date();
  const until = v.until ?? now;
  if (v.since.getTime() > now.getTime()) ctx.addIssue({ code: 'custom', path: ['since'], message: 'must not be in the future' });
  else if (v.until && v.until <= v.since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after since' });
  else if (until.getTime() - v.since.getTime() > MAX_WINDOW_MS) {
    ctx.addIssue({ code: 'custom', path: ['since'], message: `must be at most ${RESEND_MAX_WINDOW_DAYS} days before ${v.until ? 'until' : 'now'}` });
  }
  return { since: v.since, until };
}

/** The query of the preview (other parameters are ignored). */
export const ZResendQuery = z.object(fields).transform(toWindow);
/** The body of a run (unknown fields are a 400). */
export const ZResendBody = z.strictObject(fields).transform(toWindow);

/** The preview's window from a URL: a 400 naming since or until when wrong. */
export function parseResendQuery(params: URLSearchParams): TResendWindow {
  const raw = { since: params.get('since') || undefined, until: params.get('until') || undefined };
  const parsed = ZResendQuery.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

/** A server action's window (ISO strings from the form): field errors as a 400 ApiError. */
export function parseResendWindow(window: { since: string; until?: string }): TResendWindow {
  const parsed = ZResendBody.safeParse({ since: window.since, ...(window.until ? { until: window.until } : {}) });
  if (!parsed.success) throw validationError(parsed.error, 'window');
  return parsed.data;
}
