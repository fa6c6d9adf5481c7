import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { SCOPES, TOKEN_LIFETIME_SECONDS, type TScope } from '@/lib/constants';
import { env } from '@/lib/env';
import { ttlCache } from '@/lib/ttl-cache';
import { currentSigningKey, publicJwks } from './signing-keys';

/** The deployment's issuer (TOKEN_ISSUER, by default PUBLIC_URL/): every instance signs and accepts the same one. */
export function issuer(): string {
  return env.TOKEN_ISSUER;
}

export type TAccessToken = { access_token: string; scope: string; expires_in: number; token_type: 'Bearer' };

export async function issueAccessToken(clientId: string): Promise<TAccessToken> {
  const key = await currentSigningKey();
  const scope = SCOPES.join(' ');
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await new SignJWT({ azp: clientId, scope, gty: 'client-credentials' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer())
    .setSubject(`${clientId}@clients`)
    .setAudience(env.CONNECT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { access_token: accessToken, scope, expires_in: TOKEN_LIFETIME_SECONDS, token_type: 'Bearer' };
}

export type TTokenClaims = { clientId: string; scopes: Set<TScope> };

export class InvalidTokenError extends Error {}

// createLocalJWKSet imports each key on first use and keeps it: build it once per key set, not per request.
const keySetCache = new WeakMap<object, ReturnType<typeof createLocalJWKSet>>();
function keySet(jwks: { keys: JWK[] }): ReturnType<typeof createLocalJWKSet> {
  let set = keySetCache.get(jwks.keys);
  if (!set) {
    set = createLocalJWKSet(jwks);
    keySetCache.set(jwks.keys, set);
  }
  return set;
}

async function verifyUncached(token: string): Promise<TTokenClaims & { expiresAtMs: number }> {
  // A token without exp would never expire; iat and jti are what an audit or revocation keys on.
  const options = { algorithms: ['RS256'], issuer: issuer(), audience: env.CONNECT_AUDIENCE, requiredClaims: ['exp', 'iat', 'jti'] };
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(await publicJwks()), options));
  } catch (err) {
    if (err instanceof joseErrors.JWKSNoMatchingKey) {
      try {
        ({ payload } = await jwtVerify(token, keySet(await publicJwks({ refresh: true })), options));
      } catch (again) {
        throw new InvalidTokenError(describe(again));
      }
    } else {
      throw new InvalidTokenError(describe(err));
    }
  }
  const clientId = typeof payload.azp === 'string' ? payload.azp : undefined;
  if (!clientId || payload.sub !== `${clientId}@clients`) throw new InvalidTokenError('The token names no client.');
  const scopes = new Set(
    String(payload.scope ?? '')
      .split(' ')
      .filter((s): s is TScope => (SCOPES as readonly string[]).includes(s)),
  );
  return { clientId, scopes, expiresAtMs: Number(payload.exp) * 1000 };
}

/** How long a process reuses a token it verified (docs/API.md): a key retired meanwhile stops its tokens within this. */
export const VERIFIED_TOKEN_TTL_MS = 1000;
// Keyed by the token's hash, never the token; a token that fails is not kept (nothing is learnt from one).
const verified = ttlCache<string, TTokenClaims & { expiresAtMs: number }>('verified-tokens', { ttlMs: VERIFIED_TOKEN_TTL_MS });

/**
 * Verifies signature (RS256 only: `none` and HS256-with-the-public-key are refused by the pinned
 * algorithm), exp, iss and aud; exp, iat and jti must be present. An unknown kid reloads the key
 * set once. A token verified in this process in the last VERIFIED_TOKEN_TTL_MS is not verified
 * again, but its expiry still is.
 */
export async function verifyAccessToken(token: string): Promise<TTokenClaims> {
  const claims = await verified.get(createHash('sha256').update(token).digest('base64url'), () => verifyUncached(token));
  if (claims.expiresAtMs <= Date.now()) throw new InvalidTokenError('The access token has expired.');
  return { clientId: claims.clientId, scopes: claims.scopes };
}

function describe(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'The access token has expired.';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    return err.reason === 'missing' ? `The access token has no ${err.claim} claim.` : `The access token's ${err.claim} claim is not accepted here.`;
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'The access token signature does not verify.';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'The access token is not signed with RS256.';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'The access token was signed by a key this service does not know.';
  return 'The access token is malformed.';
}
