import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { currentSigningKey } from '@/lib/service/auth/signing-keys';
import { ApiError } from './errors';

// Cursor paging: `pageLimit` 1–100 (default 10), an opaque `pageToken` naming the last row seen.
// The next page is `(createdAt, id) < (cursor.t, cursor.id)` in newest-first order, so its cost
// does not grow with history.
//
// A token also carries the list it came from (its scope, e.g. `messages:<webhookId>`), so one
// list's token is refused by another instead of silently paging it from a foreign position. And it
// is signed (HMAC-SHA256 with a server key): a token this service did not issue is a 400 before
// any query runs.

export type TCursor = { t: string; id: string };
export type TPageParams = { limit: number; cursor: TCursor | null; scope: string };

/** The list a page token belongs to (hashed: a token need not spell out the ids behind it). */
export const pageScope = {
  grants: (connectId: string) => `grants:${connectId}`,
  webhooks: (accountId: string) => `webhooks:${accountId}`,
  funds: () => 'funds',
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

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16);
}

async function pageTokenKey(): Promise<Buffer> {
  return (await currentSigningKey()).pageTokenKey;
}

export async function encodeCursor(createdAt: Date, id: string, scope: string): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ t: createdAt.toISOString(), id, s: scopeTag(scope) })).toString('base64url');
  return `${payload}.${mac(await pageTokenKey(), payload).toString('base64url')}`;
}

/** The cursor of a token issued for `scope`; `'foreign'` when it was issued for another list; null when not issued here. */
export async function decodeCursor(token: string, scope: string): Promise<TCursor | 'foreign' | null> {
  const match = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match;
  const expected = mac(await pageTokenKey(), payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = ZCursor.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    if (parsed.data.s !== scopeTag(scope)) return 'foreign';
    return { t: parsed.data.t, id: parsed.data.id };
  } catch {
    return null;
  }
}

/** `pageLimit` and `pageToken` of a request for the list `scope` (see pageScope); 400 when either is bad. */
export async function pageParams(searchParams: URLSearchParams, scope: string): Promise<TPageParams> {
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
    const decoded = await decodeCursor(token, scope);
    if (decoded === 'foreign') throw badToken('pageToken belongs to another list; take it from nextPageToken of the previous page of this list.');
    if (!decoded) throw badToken('pageToken is not one this service issued; take it from nextPageToken of the previous page.');
    cursor = decoded;
  }
  return { limit, cursor, scope };
}

/** The envelope, from `limit + 1` rows fetched newest first; the next token is issued for `scope`. */
export async function pageOf<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => { createdAt: Date; id: string },
  toResult: (row: R) => T,
  scope: string,
): Promise<{ results: T[]; nextPageToken?: string }> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  return {
    results: page.map(toResult),
    ...(more ? { nextPageToken: await encodeCursor(keyOf(last).createdAt, keyOf(last).id, scope) } : {}),
  };
}
