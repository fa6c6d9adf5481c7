import 'server-only';
import * as client from 'openid-client';
import { env } from '@/lib/env';
import { isLoopbackUrl } from '@/lib/env-oidc';
import { processSingleton } from '@/lib/process-singleton';

// Single sign-on's settings (validated in lib/env-oidc.ts) and the identity provider as openid-client
// knows it: discovered once per process from <OIDC_ISSUER>/.well-known/openid-configuration, whose
// `issuer` must equal OIDC_ISSUER (openid-client checks). A failed discovery is not kept, but the
// next try waits a few seconds, so a run of sign-in clicks while the provider is down sends it one
// request, not one each.

export const CALLBACK_PATH = '/auth/oidc/callback';
const DISCOVERY_TIMEOUT_SECONDS = 10;
const RETRY_AFTER_FAILURE_MS = 5_000;

export type TOidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  label: string;
  roleClaim?: string;
  roleMap: { value: string; role: 'viewer' | 'operator' | 'admin' }[];
  defaultRole?: 'viewer' | 'operator' | 'admin';
  allowedDomains: string[];
  /** OIDC_EMAIL_VERIFIED_BY_PROVIDER: a token without email_verified is taken (oidc-claims.ts). */
  emailVerifiedByProvider: boolean;
  /** http to a loopback issuer, allowed by OIDC_ALLOW_HTTP (lib/env-oidc.ts refuses it for any other host). */
  allowHttp: boolean;
};

/** The settings, or null when single sign-on is off (no OIDC_ISSUER). */
export function oidcSettings(): TOidcSettings | null {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) return null;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    scopes: env.OIDC_SCOPES,
    label: env.OIDC_NAME ?? 'SSO',
    roleClaim: env.OIDC_ROLE_CLAIM,
    roleMap: env.OIDC_ROLE_MAP,
    defaultRole: env.OIDC_DEFAULT_ROLE,
    allowedDomains: env.OIDC_ALLOWED_DOMAINS,
    emailVerifiedByProvider: env.OIDC_EMAIL_VERIFIED_BY_PROVIDER,
    allowHttp: env.OIDC_ALLOW_HTTP && env.OIDC_ISSUER.startsWith('http:') && isLoopbackUrl(env.OIDC_ISSUER),
  };
}

/** What the login page offers: the single sign-on button (its label) and/or the password form. */
export function loginOptions(): { sso: { label: string } | null; password: boolean } {
  const s = oidcSettings();
  return { sso: s ? { label: s.label } : null, password: env.PASSWORD_LOGIN || !s };
}

/** The redirect URI registered at the identity provider: this console's public URL + /auth/oidc/callback. */
export function redirectUri(): string {
  return `${env.CONSOLE_PUBLIC_URL}${CALLBACK_PATH}`;
}

type TCache = { config?: Promise<client.Configuration>; failedAt?: number; failure?: unknown };
const cache = processSingleton('oidc-config', (): TCache => ({}));

/** The identity provider's configuration for this client (discovered once; see the header). */
export function oidcConfiguration(s: TOidcSettings): Promise<client.Configuration> {
  if (cache.config) return cache.config;
  if (cache.failedAt && Date.now() - cache.failedAt < RETRY_AFTER_FAILURE_MS) return Promise.reject(cache.failure);
  const execute = [client.enableNonRepudiationChecks];
  // Explicit and loopback only (lib/env-oidc.ts): openid-client refuses http otherwise.
  if (s.allowHttp) execute.unshift(client.allowInsecureRequests);
  const auth = s.clientSecret ? client.ClientSecretPost(s.clientSecret) : client.None();
  cache.config = client
    .discovery(new URL(s.issuer), s.clientId, s.clientSecret ? { client_secret: s.clientSecret } : undefined, auth, {
      execute,
      timeout: DISCOVERY_TIMEOUT_SECONDS,
    })
    .catch((err: unknown) => {
      cache.config = undefined;
      cache.failedAt = Date.now();
      cache.failure = err;
      throw err;
    });
  return cache.config;
}
