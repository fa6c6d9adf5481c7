import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { safeEqual } from '@/lib/crypto/secrets';
import { formDecode, parseFormStrict, unstorableReason } from '@/lib/http/storable-text';
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
/** Longer values name no client this service issues (ids are ≤ 128 characters, secrets far shorter). */
const MAX_LENGTH: Record<string, number> = { client_id: 128, client_secret: 256, audience: 512, grant_type: 64 };

type TParams = { params: Record<string, string>; notStrings: string[]; repeated: string[] };

/** A parameter sent twice is refused (RFC 6749 §3.2: "MUST NOT be included more than once"). */
function formParams(body: string): TParams | null {
  const form = parseFormStrict(body);
  if (!form) return null;
  const names = [...form.keys()];
  const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  return { params: Object.fromEntries(form), notStrings: [], repeated };
}

/**
 * The string parameters of the body, and the names of token parameters sent as something else
 * (`{"client_id": 1}`): those are reported as such, not as missing. Null counts as absent.
 */
function parseParams(contentType: string | null, body: string): TParams | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return formParams(body);
  if (type === 'application/json' || (type === '' && body.trim().startsWith('{'))) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
      const fields = parsed as Record<string, unknown>;
      return {
        params: Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
        notStrings: TOKEN_PARAMS.filter((k) => Object.hasOwn(fields, k) && fields[k] !== null && typeof fields[k] !== 'string'),
        repeated: [],
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

/** Client credentials may also come as HTTP Basic (RFC 6749 §2.3.1: each form-encoded); 'malformed' when they cannot be read. */
function basicCredentials(authorization: string | null): { id: string; secret: string } | 'malformed' | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return 'malformed';
  const id = formDecode(decoded.slice(0, i));
  const secret = formDecode(decoded.slice(i + 1));
  return id === null || secret === null ? 'malformed' : { id, secret };
}

/** Why the parameters cannot be used as sent (repeated, too long, holding NUL or a lone surrogate), or null. */
function malformedParams(params: Record<string, string>, repeated: string[]): string | null {
  if (repeated.length) return `Each parameter may be sent once; ${listNames(repeated)} came more than once.`;
  for (const [name, value] of Object.entries(params)) {
    const reason = unstorableReason(name) ?? unstorableReason(value);
    if (reason) return `The parameter ${JSON.stringify(name.replace(/[^\x20-\x7e]/g, '?').slice(0, 40))} ${reason}.`;
    const max = MAX_LENGTH[name];
    if (max && value.length > max) return `${name} is longer than ${max} characters.`;
  }
  return null;
}

export async function exchangeClientCredentials(
  contentType: string | null,
  body: string,
  authorization: string | null,
  sourceAddress = '',
): Promise<TAccessToken | TOAuthFailure> {
  const parsed = parseParams(contentType, body);
  if (!parsed) {
    return {
      status: 400,
      error: 'invalid_request',
      error_description: 'Send the parameters as JSON or application/x-www-form-urlencoded, in UTF-8 with well-formed escapes and no NUL.',
    };
  }
  const { params, notStrings, repeated } = parsed;
  const basic = basicCredentials(authorization);
  if (basic === 'malformed') {
    return { status: 400, error: 'invalid_request', error_description: 'The Basic credentials must be client_id:client_secret, each form-encoded, in base64.' };
  }
  const malformed = malformedParams(params, repeated) ?? (basic ? malformedParams({ client_id: basic.id, client_secret: basic.secret }, []) : null);
  if (malformed) return { status: 400, error: 'invalid_request', error_description: malformed };
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
    return {
      status: 429,
      error: 'temporarily_unavailable',
      error_description: `Too many failed attempts for this client; retry in ${retryAfter} s.`,
      retryAfter,
    };
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
