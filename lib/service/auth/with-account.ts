import { type NextRequest } from 'next/server';
import { AUTH_REALM, type TScope } from '@/lib/constants';
import { ApiError } from '@/lib/http/errors';
import { route, type TRequestInfo } from '@/lib/http/respond';
import { clientAccount } from './clients';
import { InvalidTokenError, verifyAccessToken } from './tokens';

export type TAccount = { accountId: string; clientId: string; scopes: Set<TScope> };
export type TAccountRequest<P> = TRequestInfo<P> & { account: TAccount };

function challenge(extra?: { error: string; description: string; scope?: string }): Record<string, string> {
  const parts = [`Bearer realm="${AUTH_REALM}"`];
  if (extra) {
    parts.push(`error="${extra.error}"`, `error_description="${extra.description.replaceAll('"', "'")}"`);
    if (extra.scope) parts.push(`scope="${extra.scope}"`);
  }
  return { 'www-authenticate': parts.join(', ') };
}

/** The caller's account from the bearer token, or a 401/403 with WWW-Authenticate. */
export async function authenticate(req: NextRequest, scope?: TScope): Promise<TAccount> {
  const header = req.headers.get('authorization');
  if (!header) throw new ApiError('unauthorized', 'An access token is required: send Authorization: Bearer <token>.', { headers: challenge() });
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  if (!match) {
    const description = 'The Authorization header must be "Bearer <token>".';
    throw new ApiError('unauthorized', description, { headers: challenge({ error: 'invalid_token', description }) });
  }
  let claims;
  try {
    claims = await verifyAccessToken(match[1]);
  } catch (err) {
    const description = err instanceof InvalidTokenError ? err.message : 'The access token is not valid.';
    throw new ApiError('unauthorized', description, { headers: challenge({ error: 'invalid_token', description }) });
  }
  const client = await clientAccount(claims.clientId);
  if (!client) {
    const description = 'The client of this access token has been revoked.';
    throw new ApiError('unauthorized', description, { headers: challenge({ error: 'invalid_token', description }) });
  }
  if (scope && !claims.scopes.has(scope)) {
    const description = `This operation needs the ${scope} scope.`;
    throw new ApiError('insufficient_scope', description, { headers: challenge({ error: 'insufficient_scope', description, scope }) });
  }
  return { accountId: client.accountId, clientId: claims.clientId, scopes: claims.scopes };
}

/** A /v1 route that needs a valid token of an account, and `scope` when given. */
export function withAccount<P = Record<string, string>>(handler: (info: TAccountRequest<P>) => Promise<Response>, { scope }: { scope?: TScope } = {}) {
  return route<P>(async (info) => handler({ ...info, account: await authenticate(info.req, scope) }));
}
