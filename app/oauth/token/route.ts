// Service: OAuth2 client-credentials token exchange (RFC 6749 §4.4, errors as §5.2).
import { type NextRequest } from 'next/server';
import { readBodyBytes } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods, route } from '@/lib/http/respond';
import { sourceAddress } from '@/lib/http/source-address';
import { exchangeClientCredentials, oauthError } from '@/lib/service/auth/token-exchange';

export const POST = route(async ({ req }: { req: NextRequest }) => {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(req);
  } catch (err) {
    if (err instanceof ApiError) return oauthError(413, 'invalid_request', err.message);
    throw err;
  }
  // scripts/server.mjs sets X-Forwarded-For to the peer address (or a trusted proxy's chain).
  const source = sourceAddress(req.headers.get('x-forwarded-for'));
  const result = await exchangeClientCredentials(
    req.headers.get('content-type'),
    Buffer.from(bytes).toString('utf8'),
    req.headers.get('authorization'),
    source,
  );
  if ('error' in result) return oauthError(result.status, result.error, result.error_description, result.retryAfter);
  return json(result, { headers: { 'cache-control': 'no-store', pragma: 'no-cache' } });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
