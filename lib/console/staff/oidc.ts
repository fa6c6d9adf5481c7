import 'server-only';
import { createHash } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { cookies } from 'next/headers';
import * as client from 'openid-client';
import { safeEqual } from '@/lib/crypto/secrets';
import { env } from '@/lib/env';
import { recordAudit } from '../audit/record-audit';
import { claimAt, type TClaims } from './oidc-claims';
import { oidcConfiguration, oidcSettings, redirectUri, type TOidcSettings } from './oidc-config';
import { classifySsoError, type TSsoError } from './oidc-errors';
import { ssoUser } from './oidc-user';
import { DEFAULT_NEXT, safeNext } from './safe-next';
import { sessionPassword, startSession } from './session';

// Single sign-on with OpenID Connect: authorization code + PKCE (openid-client).
// beginSsoSignIn: a fresh state, nonce and PKCE verifier (and where to go after) are sealed into a
// short-lived httpOnly cookie (iron-session, scoped to /auth/oidc), and the browser goes to the
// identity provider. finishSsoSignIn: the cookie is read and dropped (one use), the callback's state
// is compared with it before anything is sent anywhere, then openid-client checks the answer's
// issuer (RFC 9207), exchanges the code with the verifier, and checks the ID token's signature
// against the provider's keys (non-repudiation checks on: a token altered on the way fails), issuer,
// audience, expiry and nonce. The person (oidc-user.ts) gets the normal staff session.
// Every outcome is one audit entry `login` with method sso; a failure lands on /login?error=<code>
// (oidc-errors.ts has the sentence).

const FLOW_COOKIE = 'gc_oidc_flow';
const FLOW_TTL_SECONDS = 600;
const UNKNOWN_ACTOR = '(single sign-on)';

export class MissingIdTokenError extends Error {
  constructor() {
    super('the token response has no ID token');
    this.name = 'MissingIdTokenError';
  }
}

type TFlow = { state: string; nonce: string; verifier: string; next: string };

/** The flow cookie's own key, derived from the session secret (a sealed session is no flow, and back). */
async function flowPassword(): Promise<string> {
  return createHash('sha256')
    .update(`oidc-flow:${await sessionPassword()}`)
    .digest('hex');
}

function flowCookieOptions(maxAge: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const, // the provider's redirect back is a top-level GET: lax cookies come with it
    path: '/auth/oidc',
    maxAge,
    secure: env.NODE_ENV === 'production' && env.CONSOLE_PUBLIC_URL.startsWith('https:'),
  };
}

async function writeFlow(flow: TFlow): Promise<void> {
  const sealed = await sealData(flow, { password: await flowPassword(), ttl: FLOW_TTL_SECONDS });
  (await cookies()).set(FLOW_COOKIE, sealed, flowCookieOptions(FLOW_TTL_SECONDS));
}

/** The flow this browser started (null when none, expired or not ours); the cookie is gone after. */
async function takeFlow(): Promise<TFlow | null> {
  const jar = await cookies();
  const sealed = jar.get(FLOW_COOKIE)?.value;
  jar.set(FLOW_COOKIE, '', flowCookieOptions(0));
  if (!sealed || sealed.length > 4096) return null;
  try {
    const flow = await unsealData<Partial<TFlow>>(sealed, { password: await flowPassword(), ttl: FLOW_TTL_SECONDS });
    if (typeof flow.state !== 'string' || typeof flow.nonce !== 'string' || typeof flow.verifier !== 'string') return null;
    return { state: flow.state, nonce: flow.nonce, verifier: flow.verifier, next: safeNext(flow.next) };
  } catch {
    return null;
  }
}

function loginPage(code: TSsoError, next = DEFAULT_NEXT): string {
  return `/login?error=${code}${next === DEFAULT_NEXT ? '' : `&next=${encodeURIComponent(next)}`}`;
}

async function refuse(code: TSsoError, source: string, detail: { email?: string; check?: string; next?: string } = {}): Promise<string> {
  await recordAudit({
    actor: { email: detail.email ?? UNKNOWN_ACTOR },
    action: 'login',
    result: code,
    detail: { method: 'sso', ...(detail.check ? { check: detail.check } : {}) },
    source,
  });
  return loginPage(code, detail.next);
}

/** Where to send the browser to sign in: the identity provider, or the login page with what went wrong. */
export async function beginSsoSignIn(next: unknown, source: string): Promise<string> {
  const s = oidcSettings();
  if (!s) return loginPage('sso_off');
  const back = safeNext(next);
  let config: client.Configuration;
  try {
    config = await oidcConfiguration(s);
  } catch (err) {
    const c = classifySsoError(err);
    return refuse(c.code, source, { check: c.check, next: back });
  }
  const flow: TFlow = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), next: back };
  await writeFlow(flow);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(),
    scope: s.scopes,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  return url.href;
}

/** The provider's redirect back (`url` as it arrived): where the browser goes next, signed in or not. */
export async function finishSsoSignIn(url: URL, source: string): Promise<string> {
  const s = oidcSettings();
  if (!s) return loginPage('sso_off');
  const flow = await takeFlow();
  const state = url.searchParams.get('state') ?? '';
  if (!flow) return refuse('state_mismatch', source, { check: 'no sign-in started in this browser' });
  if (!state || !safeEqual(state, flow.state)) return refuse('state_mismatch', source, { check: 'state differs', next: flow.next });
  let claims: TClaims;
  try {
    claims = await exchange(s, url, flow);
  } catch (err) {
    const c = classifySsoError(err);
    return refuse(c.code, source, { check: c.check, next: flow.next });
  }
  const result = await ssoUser(claims, s, source);
  if (!result.ok) return refuse(result.code, source, { email: result.email, next: flow.next });
  await startSession(result.user.id);
  const detail = {
    method: 'sso',
    role: result.user.role,
    created: result.created,
    ...(result.linked ? { linked: true } : {}),
    ...(result.roleChange ? { roleChange: result.roleChange } : {}),
  };
  await recordAudit({ actor: { userId: result.user.id, email: result.user.email, environment: 'sandbox' }, action: 'login', result: 'ok', detail, source });
  return flow.next;
}

/** The code for tokens (every check of the header), then the claims; userinfo fills in an e-mail or role claim the ID token lacks. */
async function exchange(s: TOidcSettings, url: URL, flow: TFlow): Promise<TClaims> {
  const config = await oidcConfiguration(s);
  // The registered redirect URI with the parameters that arrived (behind a proxy the request's own URL differs).
  const current = new URL(redirectUri());
  current.search = url.search;
  const tokens = await client.authorizationCodeGrant(config, current, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new MissingIdTokenError();
  const lacks = !idClaims.email || (s.roleClaim !== undefined && claimAt(idClaims, s.roleClaim) === undefined);
  if (!lacks || !config.serverMetadata().userinfo_endpoint) return { ...idClaims };
  const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
  return { ...info, ...idClaims };
}
