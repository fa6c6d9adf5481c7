import { z } from 'zod';
import { SCOPES, TOKEN_LIFETIME_SECONDS } from '@/lib/constants';
import { op } from '@/lib/openapi/operation';
import { sameShape } from '@/lib/openapi/shared-schemas';
import type { TAccessToken } from './tokens';

// The token exchange and key set of /openapi.json.

export const ZTokenRequest = z
  .object({
    client_id: z.string(),
    client_secret: z.string(),
    audience: z.string().meta({ description: 'The API audience; another one → 403 access_denied.', example: 'https://api.giving-connect.test' }),
    grant_type: z.literal('client_credentials'),
  })
  .meta({ id: 'TokenRequest', description: 'JSON or form-encoded. The client may instead send its credentials as HTTP Basic.' });

export const ZAccessToken = z
  .object({
    access_token: z.string().meta({ description: 'An RS256 JWT (`kid` in /.well-known/jwks.json).' }),
    scope: z.string().meta({ example: SCOPES.join(' ') }),
    expires_in: z.int().meta({ example: TOKEN_LIFETIME_SECONDS }),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'AccessToken' });
sameShape<TAccessToken, z.output<typeof ZAccessToken>>(true);

const ZJwks = z
  .object({
    keys: z.array(z.looseObject({ kty: z.literal('RSA'), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig'), n: z.string(), e: z.string() })),
  })
  .meta({ id: 'JsonWebKeySet' });

const NO_STORE = z.object({ 'cache-control': z.literal('no-store') });

export const AUTH_OPERATIONS = [
  op('POST /oauth/token', {
    id: 'exchangeToken',
    tag: 'Auth',
    summary: 'Exchange client credentials for an access token',
    auth: 'none',
    body: ZTokenRequest,
    bodyTypes: ['application/x-www-form-urlencoded'],
    response: ZAccessToken,
    responseHeaders: NO_STORE,
    oauthErrors: true,
    errors: [401, 403, 429],
    description:
      'OAuth 2.0 client credentials (RFC 6749 §4.4). Errors in the RFC 6749 §5.2 shape: `invalid_request` (400), `invalid_client` (401), `unsupported_grant_type` (400), `access_denied` for another audience (403).',
  }),
  op('GET /.well-known/jwks.json', { id: 'getJwks', tag: 'Auth', summary: 'The public keys that verify access tokens', auth: 'none', response: ZJwks }),
];
