import { currentSigningKey } from '@/lib/service/auth/signing-keys';
import { openCursor, sealCursor, type TCursor } from '@/lib/http/cursor';
import { badPageToken, parsePageLimit } from '@/lib/http/page-limit';

// The service's cursor paging: `pageLimit` 1–100 (default 10), an opaque `pageToken` naming the
// last row seen (lib/http/cursor.ts: signed, and bound to its list). The next page is
// `(createdAt, id) < (cursor.t, cursor.id)` in newest-first order, so its cost does not grow with
// history.

export type { TCursor } from '@/lib/http/cursor';
export type TPageParams = { limit: number; cursor: TCursor | null; scope: string };

/** The list a page token belongs to (hashed: a token need not spell out the ids behind it). */
export const pageScope = {
  grants: (connectId: string) => `grants:${connectId}`,
  webhooks: (accountId: string) => `webhooks:${accountId}`,
  funds: () => 'funds',
  /** Bound to the search too: a token of one search is refused on another. */
  nonprofits: (accountId: string, q: string) => `nonprofits:${accountId}:${q}`,
  messages: (webhookId: string) => `messages:${webhookId}`,
  accountMessages: (accountId: string) => `account-messages:${accountId}`,
  troubledMessages: (accountId: string, state: string) => `troubled-messages:${accountId}:${state}`,
  attempts: (webhookId: string, messageId: string) => `attempts:${webhookId}:${messageId}`,
} as const;

async function pageTokenKey(): Promise<Buffer> {
  return (await currentSigningKey()).pageTokenKey;
}

export async function encodeCursor(createdAt: Date, id: string, scope: string): Promise<string> {
  return sealCursor(await pageTokenKey(), createdAt, id, scope);
}

/** The cursor of a token issued for `scope`; `'foreign'` when it was issued for another list; null when not issued here. */
export async function decodeCursor(token: string, scope: string): Promise<TCursor | 'foreign' | null> {
  return openCursor(await pageTokenKey(), token, scope);
}

/** `pageLimit` and `pageToken` of a request for the list `scope` (see pageScope); 400 when either is bad. */
export async function pageParams(searchParams: URLSearchParams, scope: string): Promise<TPageParams> {
  const limit = parsePageLimit(searchParams, 10);
  const token = searchParams.get('pageToken');
  let cursor: TCursor | null = null;
  if (token !== null && token !== '') {
    const decoded = await decodeCursor(token, scope);
    if (decoded === 'foreign') throw badPageToken('service', { foreign: true });
    if (!decoded) throw badPageToken('service');
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
