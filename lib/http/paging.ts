import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from './errors';

// Cursor paging: `pageLimit` 1–100 (default 10), an opaque `pageToken` naming the last row seen.
// The next page is `(createdAt, id) < (cursor.t, cursor.id)` in newest-first order, so its cost
// does not grow with history.
//
// A token also carries the list it came from (its scope, e.g. `messages:<webhookId>`), so one
// list's token is refused by another instead of silently paging it from a foreign position.

export type TCursor = { t: string; id: string };
export type TPageParams = { limit: number; cursor: TCursor | null; scope: string };

/** The list a page token belongs to (hashed: a token need not spell out the ids behind it). */
export const pageScope = {
  grants: (connectId: string) => `grants:${connectId}`,
  webhooks: (accountId: string) => `webhooks:${accountId}`,
  messages: (webhookId: string) => `messages:${webhookId}`,
  accountMessages: (accountId: string) => `account-messages:${accountId}`,
  attempts: (webhookId: string, messageId: string) => `attempts:${webhookId}:${messageId}`,
} as const;

const ZCursor = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(200), s: z.string().min(1).max(100) });

function scopeTag(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 16);
}

function badToken(detail: string): ApiError {
  return new ApiError('bad_request', detail, { errors: [{ path: 'pageToken', message: 'unknown page token' }] });
}

export function encodeCursor(createdAt: Date, id: string, scope: string): string {
  return Buffer.from(JSON.stringify({ t: createdAt.toISOString(), id, s: scopeTag(scope) })).toString('base64url');
}

/** The cursor of a token issued for `scope`; `'foreign'` when it was issued for another list. */
export function decodeCursor(token: string, scope: string): TCursor | 'foreign' | null {
  try {
    const parsed = ZCursor.safeParse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    if (parsed.data.s !== scopeTag(scope)) return 'foreign';
    return { t: parsed.data.t, id: parsed.data.id };
  } catch {
    return null;
  }
}

/** `pageLimit` and `pageToken` of a request for the list `scope` (see pageScope); 400 when either is bad. */
export function pageParams(searchParams: URLSearchParams, scope: string): TPageParams {
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
    const decoded = decodeCursor(token, scope);
    if (decoded === 'foreign') throw badToken('pageToken belongs to another list; take it from nextPageToken of the previous page of this list.');
    if (!decoded) throw badToken('pageToken is not one this service issued; take it from nextPageToken of the previous page.');
    cursor = decoded;
  }
  return { limit, cursor, scope };
}

/** The envelope, from `limit + 1` rows fetched newest first; the next token is issued for `scope`. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => { createdAt: Date; id: string },
  toResult: (row: R) => T,
  scope: string,
): { results: T[]; nextPageToken?: string } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  return {
    results: page.map(toResult),
    ...(more ? { nextPageToken: encodeCursor(keyOf(last).createdAt, keyOf(last).id, scope) } : {}),
  };
}
