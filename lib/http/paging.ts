import { z } from 'zod';
import { ApiError } from './errors';

// Cursor paging: `pageLimit` 1–100 (default 10), an opaque `pageToken` naming the last row seen.
// The next page is `(createdAt, id) < (cursor.t, cursor.id)` in newest-first order, so its cost
// does not grow with history.

export type TCursor = { t: string; id: string };
export type TPageParams = { limit: number; cursor: TCursor | null };

const ZCursor = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(200) });

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: createdAt.toISOString(), id })).toString('base64url');
}

export function decodeCursor(token: string): TCursor | null {
  try {
    const parsed = ZCursor.safeParse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function pageParams(searchParams: URLSearchParams): TPageParams {
  const rawLimit = searchParams.get('pageLimit');
  let limit = 10;
  if (rawLimit !== null) {
    if (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
      throw new ApiError('bad_request', 'pageLimit must be a whole number from 1 to 100.', {
        errors: [{ path: 'pageLimit', message: 'must be a whole number from 1 to 100' }],
      });
    }
    limit = Number(rawLimit);
  }
  const token = searchParams.get('pageToken');
  let cursor: TCursor | null = null;
  if (token !== null && token !== '') {
    cursor = decodeCursor(token);
    if (!cursor) {
      throw new ApiError('bad_request', 'pageToken is not one this service issued; take it from nextPageToken of the previous page.', {
        errors: [{ path: 'pageToken', message: 'unknown page token' }],
      });
    }
  }
  return { limit, cursor };
}

/** The envelope, from `limit + 1` rows fetched newest first. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => { createdAt: Date; id: string },
  toResult: (row: R) => T,
): { results: T[]; nextPageToken?: string } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  return {
    results: page.map(toResult),
    ...(more ? { nextPageToken: encodeCursor(keyOf(last).createdAt, keyOf(last).id) } : {}),
  };
}
