import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { recordAudit } from '../audit/record-audit';
import { domainAllowed, emailOf, mappedRole, type TClaims } from './oidc-claims';
import type { TOidcSettings } from './oidc-config';
import type { TSsoError } from './oidc-errors';
import type { TRole } from './roles';
import {
  createUser,
  findUserByEmail,
  findUserBySubject,
  linkSubject,
  markRoleFromClaim,
  touchLastLogin,
  updateUser,
  UserExistsError,
  type TUser,
} from './users';

// The staff user a verified single sign-on is for:
// - the e-mail must be sent, verified (email_verified: true, or OIDC_EMAIL_VERIFIED_BY_PROVIDER and no
//   claim saying otherwise) and in OIDC_ALLOWED_DOMAINS when set, at every sign-in;
// - the person is the user linked to the provider's (issuer, subject); a subject linked to no one
//   yet finds a user by e-mail, or makes one, and links them (their first single sign-on). A user
//   linked to another subject of this issuer is refused: a second account at the provider that
//   takes over the e-mail is not them. A linked user whose e-mail changed at the provider stays who
//   they are (the console keeps the e-mail it has). A link to another issuer (one this console used
//   before) is replaced by the e-mail, as a first sign-in;
// - a deactivated user is refused;
// - the role: when the role claim maps (OIDC_ROLE_CLAIM + OIDC_ROLE_MAP), the mapping decides on
//   every sign-in, over a role an admin set (the identity provider is where the team is managed);
//   when it does not map, a new user gets OIDC_DEFAULT_ROLE (none: refused) and an existing user
//   keeps theirs. The last active admin is never demoted by a mapping (users.ts refuses; they stay admin);
// - a new user signs in only by single sign-on (no password); an existing password stays usable.
// A user made here and a role changed here are in the audit log beside the sign-in; whether the
// claim set the role is kept on the user (roleFromClaim), for the Staff page.

export type TSsoUserResult = { ok: true; user: TUser; created: boolean; linked: boolean; roleChange?: string } | { ok: false; code: TSsoError; email?: string };

/** Whether `user` is linked to another subject of `issuer` than `subject`. */
function linkedElsewhere(user: TUser, issuer: string, subject: string): boolean {
  return user.oidcSubject !== null && user.oidcIssuer === issuer && user.oidcSubject !== subject;
}

export async function ssoUser(claims: TClaims, s: TOidcSettings, source: string): Promise<TSsoUserResult> {
  const checked = emailOf(claims, s.emailVerifiedByProvider);
  if (!checked.ok) return { ok: false, code: checked.code };
  const { email } = checked;
  if (!domainAllowed(email, s.allowedDomains)) return { ok: false, code: 'domain_not_allowed', email };
  if (typeof claims.sub !== 'string' || !claims.sub) return { ok: false, code: 'bad_token', email };
  const subject = claims.sub;
  const issuer = typeof claims.iss === 'string' ? claims.iss : s.issuer;
  const mapped = mappedRole(claims, s.roleClaim, s.roleMap);
  let user = await findUserBySubject(issuer, subject);
  let created = false;
  let linked = false;
  if (!user) {
    user = await findUserByEmail(email);
    if (user && linkedElsewhere(user, issuer, subject)) return { ok: false, code: 'linked_elsewhere', email };
    if (user?.disabledAt) return { ok: false, code: 'disabled', email };
    if (!user) {
      const role: TRole | undefined = mapped ?? s.defaultRole;
      if (!role) return { ok: false, code: 'no_role', email };
      try {
        user = await createUser(email, null, role);
        created = true;
        const actor = { userId: user.id, email: user.email, environment: 'sandbox' };
        await recordAudit({
          actor,
          action: 'user.create',
          target: [user.id, user.email],
          result: 'ok',
          detail: { role, signIn: 'sso', by: 'single sign-on' },
          source,
        });
      } catch (err) {
        if (!(err instanceof UserExistsError)) throw err;
        user = await findUserByEmail(email); // made by a sign-in at the same moment
        if (!user) return { ok: false, code: 'sso_failed', email };
      }
    }
    // Another subject may have linked them a moment ago: then this one is not them.
    const link = await linkSubject(user.id, issuer, subject);
    if (!link) return { ok: false, code: 'linked_elsewhere', email };
    user = link;
    linked = true;
  }
  if (user.disabledAt) return { ok: false, code: 'disabled', email: user.email };
  let roleChange: string | undefined;
  if (!created && mapped && mapped !== user.role) {
    try {
      const changed = await updateUser(user.id, { role: mapped });
      if (changed) {
        roleChange = `${changed.before.role} → ${changed.after.role}`;
        user = changed.after;
        const actor = { userId: user.id, email: user.email, environment: 'sandbox' };
        await recordAudit({
          actor,
          action: 'user.update',
          target: [user.id, user.email],
          result: 'ok',
          detail: { role: roleChange, by: 'single sign-on role claim' },
          source,
        });
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'conflict')) throw err;
      roleChange = `${user.role} kept: the last active admin`;
    }
  }
  // The Staff page says whose role the claim set (and so sets again at each sign-in).
  const fromClaim = mapped !== undefined && user.role === mapped;
  if (user.roleFromClaim !== fromClaim) user = (await markRoleFromClaim(user.id, fromClaim)) ?? user;
  await touchLastLogin(user.id);
  return { ok: true, user, created, linked, ...(roleChange ? { roleChange } : {}) };
}
