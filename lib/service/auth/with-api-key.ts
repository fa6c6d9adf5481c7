import { eq } from 'drizzle-orm';
import type { TScope } from '@/lib/constants';
import { sha256 } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { route } from '@/lib/http/respond';
import { authenticate, type TAccountRequest } from '@/lib/service/auth/with-account';
import type { TConnectRow } from '@/lib/service/connects/connect-json';
import { ttlCache } from '@/lib/ttl-cache';

export const API_KEY_HEADER = 'x-service-api-key';

/** How long a process may go on using a Connect it read by its API key (docs/API.md: a key or Connect change within 1 s). */
export const CONNECT_CACHE_TTL_MS = 1000;
// Keyed by the key's hash, never the key; an unknown key is cached too (a burst of bad keys costs one read a second).
const connectCache = ttlCache<string, TConnectRow | null>('connect-by-api-key', { ttlMs: CONNECT_CACHE_TTL_MS });

export type TApiKeyRequest<P> = TAccountRequest<P> & { connect: TConnectRow };

/** Whether the request carries an API key at all (an empty header counts as none). */
export function hasApiKey(req: Request): boolean {
  return Boolean(req.headers.get(API_KEY_HEADER)?.trim());
}

/** The Connect whose API key the request carries; it must belong to the token's account. */
export async function connectOfApiKey(req: Request, accountId: string): Promise<TConnectRow> {
  const apiKey = req.headers.get(API_KEY_HEADER)?.trim();
  if (!apiKey) throw new ApiError('forbidden', `An API key is required: send the Connect's key in the ${API_KEY_HEADER} header.`);
  // Looked up by its hash (unique index): the key itself is never compared.
  const hash = sha256(apiKey);
  const connect = await connectCache.get(hash, async () => {
    const db = await getDb();
    const [row] = await db.select().from(schema.connects).where(eq(schema.connects.apiKeyHash, hash));
    return row ?? null;
  });
  if (!connect) throw new ApiError('forbidden', `The API key in ${API_KEY_HEADER} is not valid.`);
  if (connect.accountId !== accountId) throw new ApiError('forbidden', `The API key in ${API_KEY_HEADER} belongs to a Connect of another account.`);
  return connect;
}

/** A /v1 route that needs a token of an account (with `scope`) and the API key of one of its Connects. */
export function withApiKey<P = Record<string, string>>(handler: (info: TApiKeyRequest<P>) => Promise<Response>, { scope }: { scope: TScope }) {
  return route<P>(async (info) => {
    const account = await authenticate(info.req, scope);
    const connect = await connectOfApiKey(info.req, account.accountId);
    return handler({ ...info, account, connect });
  });
}
