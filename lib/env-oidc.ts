import { z } from 'zod';

// The single sign-on settings of lib/env.ts (OpenID Connect for the console's staff) and the checks
// between them, so a half-made setup stops the start with one line naming what is missing.
// Shared code: it may not import the console, so the role names are repeated here
// (lib/console/staff/roles.ts is the source; tests/unit/oidc.test.ts keeps them equal).

export const OIDC_ROLES = ['viewer', 'operator', 'admin'] as const;
export type TOidcRole = (typeof OIDC_ROLES)[number];
export type TOidcRoleRule = { value: string; role: TOidcRole };

const emptyIsUnset = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * `OIDC_ROLE_MAP="support-admins=admin,support=operator,everyone=viewer"`: a value of the role claim,
 * `=`, a role; pairs separated by commas. A value may hold any character but `,` and `=`.
 */
export function parseRoleMap(text: string): { rules: TOidcRoleRule[] } | { error: string } {
  const rules: TOidcRoleRule[] = [];
  for (const raw of text.split(',')) {
    const pair = raw.trim();
    if (!pair) continue;
    const m = /^([^=]+)=\s*([a-z]+)$/.exec(pair);
    const value = m?.[1].trim();
    if (!m || !value) return { error: `must be value=role pairs separated by commas, e.g. support-admins=admin,support=operator ("${pair}" is not one)` };
    if (!(OIDC_ROLES as readonly string[]).includes(m[2])) return { error: `maps "${value}" to "${m[2]}": a role is viewer, operator or admin` };
    if (rules.some((r) => r.value === value)) return { error: `names "${value}" twice` };
    rules.push({ value, role: m[2] as TOidcRole });
  }
  if (!rules.length) return { error: 'must name at least one value=role pair' };
  return { rules };
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const ZOidcFields = {
  // The issuer (its discovery document is <issuer>/.well-known/openid-configuration). Unset: no single sign-on.
  OIDC_ISSUER: emptyIsUnset.pipe(z.url({ protocol: /^https?$/, message: 'must be the issuer URL, e.g. https://login.example.org' }).optional()),
  OIDC_CLIENT_ID: emptyIsUnset,
  OIDC_CLIENT_SECRET: emptyIsUnset, // unset: a public client (PKCE alone)
  OIDC_NAME: emptyIsUnset.pipe(z.string().max(40, { message: 'must be at most 40 characters' }).optional()), // "Sign in with <name>"
  OIDC_SCOPES: z
    .string()
    .default('openid email profile')
    .refine((s) => s.split(/\s+/).includes('openid'), { message: 'must include openid' })
    .refine((s) => /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(s.trim()), { message: 'must be scope names separated by spaces' })
    .transform((s) => s.trim()),
  OIDC_ROLE_CLAIM: emptyIsUnset.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_:/.-]{1,200}$/, { message: 'must be a claim name (dots for a nested claim, e.g. realm_access.roles)' })
      .optional(),
  ),
  OIDC_ROLE_MAP: emptyIsUnset.transform((v, ctx) => {
    if (v === undefined) return [] as TOidcRoleRule[];
    const parsed = parseRoleMap(v);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return [] as TOidcRoleRule[];
    }
    return parsed.rules;
  }),
  OIDC_DEFAULT_ROLE: emptyIsUnset.pipe(
    z.enum(OIDC_ROLES, { message: 'must be viewer, operator or admin (or unset: people unknown to the console are refused)' }).optional(),
  ),
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(DOMAIN, { message: 'must be e-mail domains separated by commas, e.g. example.org,example.com' }))),
  // true: the provider verifies every e-mail it holds, so a token without email_verified is taken (false: it must say true).
  OIDC_EMAIL_VERIFIED_BY_PROVIDER: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  // openid-client talks only https; an http issuer is allowed with this, and only on loopback (tests, local development).
  OIDC_ALLOW_HTTP: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  // false: the login page shows only single sign-on, and password sign-in (the form and POST /api/session) is refused.
  PASSWORD_LOGIN: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
};

/** Whether `url`'s host is a loopback name or address (localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]';
}

type TOidcInput = {
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_NAME?: string;
  OIDC_ROLE_CLAIM?: string;
  OIDC_ROLE_MAP: TOidcRoleRule[];
  OIDC_DEFAULT_ROLE?: string;
  OIDC_ALLOWED_DOMAINS: string[];
  OIDC_EMAIL_VERIFIED_BY_PROVIDER: boolean;
  OIDC_ALLOW_HTTP: boolean;
  PASSWORD_LOGIN: boolean;
};

/** The checks between the settings: each problem one issue on the variable to change. */
export function checkOidc(e: TOidcInput, ctx: z.RefinementCtx): void {
  const issue = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
  if (!e.OIDC_ISSUER) {
    const stray = (['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_ROLE_CLAIM', 'OIDC_DEFAULT_ROLE'] as const).find((k) => e[k] !== undefined);
    if (stray) issue(stray, 'is set but OIDC_ISSUER is not: set OIDC_ISSUER to turn single sign-on on, or unset it');
    else if (e.OIDC_ROLE_MAP.length) issue('OIDC_ROLE_MAP', 'is set but OIDC_ISSUER is not');
    else if (e.OIDC_ALLOWED_DOMAINS.length) issue('OIDC_ALLOWED_DOMAINS', 'is set but OIDC_ISSUER is not');
    else if (e.OIDC_EMAIL_VERIFIED_BY_PROVIDER) issue('OIDC_EMAIL_VERIFIED_BY_PROVIDER', 'is true but OIDC_ISSUER is not set');
    if (!e.PASSWORD_LOGIN) issue('PASSWORD_LOGIN', 'is false but OIDC_ISSUER is not set: nobody could sign in');
    return;
  }
  if (!e.OIDC_CLIENT_ID) issue('OIDC_CLIENT_ID', 'must be set with OIDC_ISSUER (the client id this console has at the identity provider)');
  if (e.OIDC_ISSUER.startsWith('http:')) {
    if (!isLoopbackUrl(e.OIDC_ISSUER)) issue('OIDC_ISSUER', 'must be an https URL (http is allowed only for a loopback issuer, with OIDC_ALLOW_HTTP=true)');
    else if (!e.OIDC_ALLOW_HTTP)
      issue('OIDC_ISSUER', 'is http: set OIDC_ALLOW_HTTP=true to allow it (honoured only for a loopback issuer: tests, local development)');
  }
  if (e.OIDC_ROLE_MAP.length && !e.OIDC_ROLE_CLAIM) issue('OIDC_ROLE_CLAIM', 'must be set with OIDC_ROLE_MAP (the claim whose values it maps, e.g. groups)');
  if (e.OIDC_ROLE_CLAIM && !e.OIDC_ROLE_MAP.length) issue('OIDC_ROLE_MAP', 'must be set with OIDC_ROLE_CLAIM, e.g. support-admins=admin,support=operator');
}
