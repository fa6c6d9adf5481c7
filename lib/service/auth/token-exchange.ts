import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { safeEqual } from '@/lib/crypto/secrets';
import { authenticateClient } from './clients';
import { clearTokenFailures, recordTokenFailure, tokenRetryAfter } from './throttle';
import { issueAccessToken, type TAccessToken } from './tokens';

type TOAuthFailure = { status: number; error: string; error_description: string; retryAfter?: number };

export function oauthError(status: number, error: string, description: string, retryAfter?: number): NextResponse {
  const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="giving-connect"';
  if (retryAfter) headers['retry-after'] = String(retryAfter);
  return NextResponse.json({ error, error_description: description }, { status, headers });
}

function parseParams(contentType: string | null, body: string): Record<string, string> | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  if (type === 'application/json' || (type === '' && body.trim().startsWith('{'))) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    } catch {
      return null;
    }
  }
  return null;
}

/** Client credentials may also come as HTTP Basic (RFC 6749 §2.3.1). */
function basicCredentials(authorization: string | null): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
}

export async function exchangeClientCredentials(
  contentType: string | null,
  body: string,
  authorization: string | null,
  sourceAddress = '',
): Promise<TAccessToken | TOAuthFailure> {
  const params = parseParams(contentType, body);
  if (!params) {
    return { status: 400, error: 'invalid_request', error_description: 'Send the parameters as JSON or application/x-www-form-urlencoded.' };
  }
  const basic = basicCredentials(authorization);
  const clientId = params.client_id ?? basic?.id;
  const clientSecret = params.client_secret ?? basic?.secret;
  const missing = ['grant_type', 'audience'].filter((k) => !params[k]);
  if (!clientId) missing.push('client_id');
  if (!clientSecret) missing.push('client_secret');
  if (missing.length) {
    return { status: 400, error: 'invalid_request', error_description: `Missing parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.` };
  }
  if (params.grant_type !== 'client_credentials') {
    return { status: 400, error: 'unsupported_grant_type', error_description: 'Only grant_type=client_credentials is supported.' };
  }
  const throttleKey = `${clientId}|${sourceAddress}`;
  const retryAfter = await tokenRetryAfter(throttleKey);
  if (retryAfter > 0) {
    return { status: 429, error: 'temporarily_unavailable', error_description: `Too many failed attempts for this client; retry in ${retryAfter} s.`, retryAfter };
  }
  const client = await authenticateClient(clientId!, clientSecret!);
  if (!client) {
    await recordTokenFailure(throttleKey);
    return { status: 401, error: 'invalid_client', error_description: 'Unknown client or wrong client secret.' };
  }
  await clearTokenFailures(throttleKey);
  if (!safeEqual(params.audience, env.CONNECT_AUDIENCE)) {
    return { status: 403, error: 'access_denied', error_description: `The audience must be ${env.CONNECT_AUDIENCE}.` };
  }
  return issueAccessToken(client.clientId);
}
