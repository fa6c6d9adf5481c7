import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { safeEqual } from '@/lib/crypto/secrets';
import { authenticateClient } from './clients';
import { clearTokenAttempts, reserveTokenAttempt } from './throttle';
import { issueAccessToken, type TAccessToken } from './tokens';

type TOAuthFailure = { status: number; error: string; error_description: string; retryAfter?: number };

export function oauthError(status: number, error: string, description: string, retryAfter?: number): NextResponse {
  const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="giving-connect"';
  if (retryAfter) headers['retry-after'] = String(retryAfter);
  return NextResponse.json({ error, error_description: description }, { status, headers });
}

const TOKEN_PARAMS = ['client_id', 'client_secret', 'audience', 'grant_type'] as const;

/**
 * The string parameters of the body, and the names of token parameters sent as something else
 * (`{"client_id": 1}`): those are reported as such, not as missing. Null counts as absent.
 */
function parseParams(contentType: string | null, body: string): { params: Record<string, string>; notStrings: string[] } | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return { params: Object.fromEntries(new URLSearchParams(body)), notStrings: [] };
  if (type === 'application/json' || (type === '' && body.trim().startsWith('{'))) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
      const fields = parsed as Record<string, unknown>;
      return {
        params: Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
        notStrings: TOKEN_PARAMS.filter((k) => Object.hasOwn(fields, k) && fields[k] !== null && typeof fields[k] !== 'string'),
      };
    } catch {
      return null;
    }
  }
  return null;
}

function listNames(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
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
  const parsed = parseParams(contentType, body);
  if (!parsed) {
    return { status: 400, error: 'invalid_request', error_description: 'Send the parameters as JSON or application/x-www-form-urlencoded.' };
  }
  const { params, notStrings } = parsed;
  const basic = basicCredentials(authorization);
  const clientId = params.client_id ?? basic?.id;
  const clientSecret = params.client_secret ?? basic?.secret;
  const missing: string[] = [];
  if (!clientId) missing.push('client_id');
  if (!clientSecret) missing.push('client_secret');
  missing.push(...['audience', 'grant_type'].filter((k) => !params[k]));
  const wrong = notStrings.filter((k) => missing.includes(k));
  const absent = missing.filter((k) => !wrong.includes(k));
  if (wrong.length || absent.length) {
    const problems = [
      ...(wrong.length ? [`${listNames(wrong)} must be ${wrong.length > 1 ? 'strings' : 'a string'}.`] : []),
      ...(absent.length ? [`Missing parameter${absent.length > 1 ? 's' : ''}: ${absent.join(', ')}.`] : []),
    ];
    return { status: 400, error: 'invalid_request', error_description: problems.join(' ') };
  }
  if (params.grant_type !== 'client_credentials') {
    return { status: 400, error: 'unsupported_grant_type', error_description: 'Only grant_type=client_credentials is supported.' };
  }
  const throttleKey = `${clientId}|${sourceAddress}`;
  const retryAfter = await reserveTokenAttempt(throttleKey);
  if (retryAfter > 0) {
    return { status: 429, error: 'temporarily_unavailable', error_description: `Too many failed attempts for this client; retry in ${retryAfter} s.`, retryAfter };
  }
  const client = await authenticateClient(clientId!, clientSecret!);
  if (!client) {
    return { status: 401, error: 'invalid_client', error_description: 'Unknown client or wrong client secret.' };
  }
  await clearTokenAttempts(throttleKey);
  if (!safeEqual(params.audience, env.CONNECT_AUDIENCE)) {
    return { status: 403, error: 'access_denied', error_description: `The audience must be ${env.CONNECT_AUDIENCE}.` };
  }
  return issueAccessToken(client.clientId);
}
