import { hasRole, type TRole } from './roles';

// What a single sign-on's claims say about the person: their e-mail (refused unless the provider says
// it verified it), whether its domain may sign in, and the role the role claim maps to. Pure.

export type TClaims = Record<string, unknown>;
export type TRoleRule = { value: string; role: TRole };

/** A claim by name; dots reach into objects (`realm_access.roles`) when no claim has the dotted name itself. */
export function claimAt(claims: TClaims, name: string): unknown {
  if (name in claims) return claims[name];
  let node: unknown = claims;
  for (const part of name.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** The claim's values: a string, a list of strings, or a space-separated string (as scopes are). */
function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return [value, ...value.split(/[\s,]+/).filter(Boolean)];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The highest role any of the claim's values maps to, or null when none maps (or the claim is absent). */
export function mappedRole(claims: TClaims, roleClaim: string | undefined, map: TRoleRule[]): TRole | null {
  if (!roleClaim || !map.length) return null;
  const values = new Set(claimValues(claimAt(claims, roleClaim)));
  let best: TRole | null = null;
  for (const rule of map) {
    if (values.has(rule.value) && (best === null || !hasRole(best, rule.role))) best = rule.role;
  }
  return best;
}

export type TEmailCheck = { ok: true; email: string } | { ok: false; code: 'no_email' | 'email_unverified' };

/**
 * The e-mail address the person signs in as: the provider must say it verified it
 * (`email_verified: true`), unless it is marked as verifying every e-mail it holds
 * (OIDC_EMAIL_VERIFIED_BY_PROVIDER), where only a claim saying it is not verified refuses it.
 */
export function emailOf(claims: TClaims, verifiedByProvider = false): TEmailCheck {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email || email.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { ok: false, code: 'no_email' };
  // Some providers send the claim as a string.
  const verified = claims.email_verified;
  if (verified === true || verified === 'true') return { ok: true, email };
  if (verified === undefined && verifiedByProvider) return { ok: true, email };
  return { ok: false, code: 'email_unverified' };
}

/** Whether `email` may sign in: every domain when the list is empty, else exactly one of them. */
export function domainAllowed(email: string, allowed: string[]): boolean {
  if (!allowed.length) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return allowed.includes(domain);
}
