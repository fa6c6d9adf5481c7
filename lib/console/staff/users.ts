import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { hashSecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { sessions, users } from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { isRole, type TRole } from './roles';

// Staff users of the console: an email, a slow (scrypt) password hash (none: single sign-on only),
// a role (roles.ts) and, when deactivated, the time it was. The last active admin stays one.
// No 'server-only' marker: the console CLI and boot (plain Node, no react-server condition) use it.

export type TUser = typeof users.$inferSelect;
export type TUserView = {
  id: string;
  email: string;
  role: string;
  signIn: 'password' | 'sso';
  disabled: boolean;
  /** Signs in with a one-time password not changed yet. */
  mustChangePassword: boolean;
  /** The role came from the identity provider's role claim at the last sign-in, which sets it again at the next. */
  roleFromClaim: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
};

export const MIN_PASSWORD_LENGTH = 8;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`A user ${email} already exists.`);
    this.name = 'UserExistsError';
  }
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized) || normalized.length > 320) throw new ApiError('bad_request', `"${email}" is not an email address.`);
  return normalized;
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new ApiError('bad_request', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1024) throw new ApiError('bad_request', 'The password must be at most 1024 characters.');
}

/** A password to show once: 20 characters of base62 (119 bits). */
export function oneTimePassword(): string {
  return randomString(20);
}

/**
 * Creates a staff user; throws UserExistsError when the email is taken. `password` null: the user
 * signs in only by single sign-on. Without a role: admin for the first user, viewer after.
 * `oneTime`: the password is one someone else chose (an admin's add), changed at the first sign-in.
 */
export async function createUser(email: string, password: string | null, role?: TRole, oneTime = false): Promise<TUser> {
  const normalized = checkEmail(email);
  if (password !== null) checkPassword(password);
  if (role !== undefined && !isRole(role)) throw new ApiError('bad_request', 'role must be viewer, operator or admin.');
  const passwordHash = password === null ? null : await hashSecret(password);
  const db = await getDb();
  const [{ n }] = await db.select({ n: count() }).from(users);
  const [row] = await db
    .insert(users)
    .values({ email: normalized, passwordHash, role: role ?? (n === 0 ? 'admin' : 'viewer'), mustChangePassword: oneTime && password !== null })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new UserExistsError(normalized);
  return row;
}

/**
 * Sets a password someone else chose (the CLI's users:password): one-time, as the page's reset
 * makes it, so it is changed at the next sign-in, and every session of the user ends.
 */
export async function setPassword(email: string, password: string): Promise<boolean> {
  const normalized = checkEmail(email);
  checkPassword(password);
  const db = await getDb();
  const rows = await db
    .update(users)
    .set({ passwordHash: await hashSecret(password), mustChangePassword: true })
    .where(eq(users.email, normalized))
    .returning({ id: users.id });
  for (const { id } of rows) await db.delete(sessions).where(eq(sessions.userId, id));
  return rows.length > 0;
}

/**
 * A new one-time password for a user, to be changed at their next sign-in; every session of theirs
 * ends. Null when there is no such user; a conflict for a user who signs in only by single sign-on.
 */
export async function resetPassword(id: string): Promise<{ user: TUser; password: string } | null> {
  const found = await getUser(id);
  if (!found) return null;
  if (!found.passwordHash) throw new ApiError('conflict', `${found.email} signs in only by single sign-on: there is no password to reset.`);
  const password = oneTimePassword();
  const db = await getDb();
  const [user] = await db
    .update(users)
    .set({ passwordHash: await hashSecret(password), mustChangePassword: true })
    .where(eq(users.id, id))
    .returning();
  await db.delete(sessions).where(eq(sessions.userId, id));
  return user ? { user, password } : null;
}

export async function findUserByEmail(email: string): Promise<TUser | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

/** The user linked to the identity provider's (issuer, subject) at an earlier single sign-on. */
export async function findUserBySubject(issuer: string, subject: string): Promise<TUser | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)))
    .limit(1);
  return row ?? null;
}

/**
 * Links a user to the provider's (issuer, subject) unless it is linked to another subject of that
 * issuer already (a link to another issuer, one this console used before, is replaced). Null when
 * it was not linked (another subject's, perhaps a moment ago).
 */
export async function linkSubject(id: string, issuer: string, subject: string): Promise<TUser | null> {
  const db = await getDb();
  const free = sql`(${users.oidcSubject} is null or ${users.oidcIssuer} is distinct from ${issuer} or ${users.oidcSubject} = ${subject})`;
  const [row] = await db
    .update(users)
    .set({ oidcIssuer: issuer, oidcSubject: subject })
    .where(and(eq(users.id, id), free))
    .returning();
  return row ?? null;
}

export async function getUser(id: string): Promise<TUser | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** What the users page and GET /api/users show: never a hash. */
export function userView(u: TUser): TUserView {
  return {
    id: u.id,
    email: u.email,
    role: u.role,
    signIn: u.passwordHash ? 'password' : 'sso',
    disabled: u.disabledAt !== null,
    mustChangePassword: u.mustChangePassword,
    roleFromClaim: u.roleFromClaim,
    createdAt: u.createdAt,
    lastLoginAt: u.lastLoginAt,
  };
}

export async function listUsers(): Promise<TUserView[]> {
  const db = await getDb();
  return (await db.select().from(users).orderBy(asc(users.createdAt))).map(userView);
}

/**
 * Changes a user's role and/or deactivates (or reactivates) them, as one transaction that locks the
 * active admins, so two admins demoting each other at once cannot leave none. A deactivated user's
 * sessions are deleted in it: they end at once. Returns the user before and after, or null.
 */
export async function updateUser(id: string, patch: { role?: TRole; disabled?: boolean }): Promise<{ before: TUser; after: TUser } | null> {
  if (patch.role !== undefined && !isRole(patch.role)) throw new ApiError('bad_request', 'role must be viewer, operator or admin.');
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
      .for('update');
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!before) return null;
    const staysAdmin = (patch.role ?? before.role) === 'admin' && !(patch.disabled ?? before.disabledAt !== null);
    if (admins.some((a) => a.id === id) && admins.length === 1 && !staysAdmin) {
      throw new ApiError('conflict', `${before.email} is the last active admin: make another admin first.`);
    }
    const set: Partial<typeof users.$inferInsert> = {};
    if (patch.role !== undefined) set.role = patch.role;
    if (patch.disabled !== undefined) set.disabledAt = patch.disabled ? (before.disabledAt ?? new Date()) : null;
    const [after] = Object.keys(set).length ? await tx.update(users).set(set).where(eq(users.id, id)).returning() : [before];
    if (patch.disabled) await tx.delete(sessions).where(eq(sessions.userId, id));
    return { before, after };
  });
}

/** Whether the identity provider's role claim set this user's role at their last single sign-on. */
export async function markRoleFromClaim(id: string, fromClaim: boolean): Promise<TUser | null> {
  const db = await getDb();
  const [row] = await db.update(users).set({ roleFromClaim: fromClaim }).where(eq(users.id, id)).returning();
  return row ?? null;
}

export async function touchLastLogin(id: string): Promise<void> {
  const db = await getDb();
  await db
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(users.id, id));
}

/**
 * The admin CONSOLE_ADMIN_EMAIL / CONSOLE_ADMIN_PASSWORD name when both are set (automation, the
 * tests), created at start when that user does not exist yet, with that password as given. An
 * existing user keeps its password and role (they may have been changed since). Unset, the first
 * start generates a one-time password instead (lib/console/initial-credentials.ts).
 */
export async function ensureAdmin(email: string, password: string): Promise<void> {
  if (await findUserByEmail(email)) return;
  try {
    await createUser(email, password, 'admin');
  } catch (err) {
    if (!(err instanceof UserExistsError)) throw err; // another instance made it first
  }
}
