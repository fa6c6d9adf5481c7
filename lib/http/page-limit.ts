import { ApiError } from './errors';

// The paging vocabulary both halves speak: `pageLimit` (1–100) and an opaque `pageToken` taken from
// the previous page's `nextPageToken`. Pure (no keys, no database), so console routes share it with
// the service without importing the service.

export const MAX_PAGE_LIMIT = 100;

/** `pageLimit` when given (a whole number 1–100, else a 400 naming it), or `fallback`. */
export function parsePageLimit(sp: URLSearchParams, fallback: number): number {
  const raw = sp.get('pageLimit');
  if (raw === null) return fallback;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_LIMIT) {
    throw new ApiError('bad_request', `pageLimit must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`, {
      errors: [{ path: 'pageLimit', message: `must be a whole number from 1 to ${MAX_PAGE_LIMIT}` }],
    });
  }
  return Number(raw);
}

/**
 * The 400 for a `pageToken` this side did not issue (`issuer`: "service" or "console"), or, with
 * `foreign`, one issued for another list.
 */
export function badPageToken(issuer: 'service' | 'console', { foreign = false } = {}): ApiError {
  const detail = foreign
    ? 'pageToken belongs to another list; take it from nextPageToken of the previous page of this list.'
    : `pageToken is not one this ${issuer} issued; take it from nextPageToken of the previous page.`;
  return new ApiError('bad_request', detail, { errors: [{ path: 'pageToken', message: 'unknown page token' }] });
}
