// Staff roles, lowest first: a viewer looks (no secrets, donor details masked), an operator also
// acts (test events, resend, recover, receivers, share links, exports with donor details), an admin
// also administers (users, alert rules, settings, secrets in full). Pure: the CLI and tests use it.

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type TRole = (typeof ROLES)[number];

export function isRole(value: unknown): value is TRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what needs `min`. An unknown role (a row edited by hand) may do nothing. */
export function hasRole(role: string, min: TRole): boolean {
  return isRole(role) && ROLES.indexOf(role) >= ROLES.indexOf(min);
}

const WHAT: Record<TRole, string> = {
  viewer: 'signed-in staff',
  operator: 'operators and admins',
  admin: 'admins',
};

const signedInAs = (role: string) =>
  `you are signed in as ${isRole(role) ? `a${role === 'admin' || role === 'operator' ? 'n' : ''} ${role}` : 'a user without a role'}`;

/** The sentence a refused request gets: what it needs and what the caller is. */
export function forbiddenMessage(role: string, min: TRole): string {
  return `Only ${WHAT[min]} can do this; ${signedInAs(role)}.`;
}

/** The 403 page's sentence: whom the page is for (its least role, when known) and what the caller is. */
export function forbiddenPageMessage(role: string | null, min: TRole | null): string {
  const who = role === null ? '' : `; ${signedInAs(role)}`;
  return min ? `This page is for ${WHAT[min]}${who}.` : `Your role does not reach this page${who}.`;
}
