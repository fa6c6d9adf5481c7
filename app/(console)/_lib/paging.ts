import { ApiError } from '@/lib/http/errors';

// The console's JSON routes page like the API: `pageLimit` (1–100) and an opaque `pageToken`
// taken from the previous page's `nextPageToken`.

export const MAX_PAGE_LIMIT = 100;

/** `pageLimit` when given (1–100, else a 400 naming it), or the fallback. */
export function pageLimitParam(sp: URLSearchParams, fallback: number): number {
  const raw = sp.get('pageLimit');
  if (raw === null) return fallback;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_LIMIT) {
    throw new ApiError('bad_request', `pageLimit must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`, {
      errors: [{ path: 'pageLimit', message: `must be a whole number from 1 to ${MAX_PAGE_LIMIT}` }],
    });
  }
  return Number(raw);
}

export function badPageToken(): ApiError {
  return new ApiError('bad_request', 'pageToken is not one this console issued; take it from nextPageToken of the previous page.', {
    errors: [{ path: 'pageToken', message: 'unknown page token' }],
  });
}
