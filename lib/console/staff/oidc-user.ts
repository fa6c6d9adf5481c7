import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { recordAudit } from '../audit/record-audit';
import { domainAllowed, emailOf, mappedRole, type TClaims } from './oidc-claims';
import type { TOidcSettings } from './oidc-config';
import type { TSsoError } from './oidc-errors';
import type { TRole } from './roles';
import { createUser, findUserByEmail, markRoleFromClaim, touchLastLogin, updateUser, UserExistsError, type TUser } from './users';

// The staff user a verified single sign-on is for, found by e-mail or made:
// - the e-mail must be sent (and not said to be unverified) and in OIDC_ALLOWED_DOMAINS when set;
// - a deactivated user is refused;
// - the role: when the role claim maps (OIDC_ROLE_CLAIM + OIDC_ROLE_MAP), the mapping decides on
//   every sign-in, over a role an admin set (the identity provider is where the team is managed);
//   when it does not map, a new user gets OIDC_DEFAULT_ROLE (none: refused) and an existing user
//   keeps theirs. The last active admin is never demoted by a mapping (users.ts refuses; they stay admin);
// - a new user signs in only by single sign-on (no password); an existing password stays usable.
// A user made here and a role changed here are in the audit log beside the sign-in; whether the
// claim set the role is kept on the user (roleFromClaim), for the Staff page.

export type TSsoUserResult = { ok: true; user: TUser; created: boolean; roleChange?: string } | { ok: false; code: TSsoError; email?: string };

export async function ssoUser(claims: TClaims, s: TOidcSettings, source: string): Promise<TSsoUserResult> {
  const checked = emailOf(claims);
  if (!checked.ok) return { ok: false, code: checked.code };
  const { email } = checked;
  if (!domainAllowed(email, s.allowedDomains)) return { ok: false, code: 'domain_not_allowed', email };
  const mapped = mappedRole(claims, s.roleClaim, s.roleMap);
  let user = await findUserByEmail(email);
  if (user?.disabledAt) return { ok: false, code: 'disabled', email };
  let created = false;
  if (!user) {
    const role: TRole | undefined = mapped ?? s.defaultRole;
    if (!role) return { ok: false, code: 'no_role', email };
    try {
      user = await createUser(email, null, role);
      created = true;
      const actor = { userId: user.id, email: user.email, environment: 'sandbox' };
      await recordAudit({ actor, action: 'user.create', target: [user.id, user.email], result: 'ok', detail: { role, signIn: 'sso', by: 'single sign-on' }, source });
    } catch (err) {
      if (!(err instanceof UserExistsError)) throw err;
      user = await findUserByEmail(email); // made by a sign-in at the same moment
      if (!user || user.disabledAt) return { ok: false, code: user ? 'disabled' : 'sso_failed', email };
    }
  }
  let roleChange: string | undefined;
  if (!created && mapped && mapped !== user.role) {
    try {
      const changed = await updateUser(user.id, { role: mapped });
      if (changed) {
        roleChange = `${changed.before.role} → ${changed.after.role}`;
        user = changed.after;
        const actor = { userId: user.id, email: user.email, environment: 'sandbox' };
        await recordAudit({ actor, action: 'user.update', target: [user.id, user.email], result: 'ok', detail: { role: roleChange, by: 'single sign-on role claim' }, source });
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
  return { ok: true, user, created, ...(roleChange ? { roleChange } : {}) };
}
