import { asc, eq, sql } from 'drizzle-orm';
import { hashSecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { env } from '@/lib/env';

// Staff users of the console: an email and a slow (scrypt) password hash.
// No 'server-only' marker: the console CLI and boot (plain Node, no react-server condition) use it.

export type TUser = { id: string; email: string; passwordHash: string; createdAt: Date; lastLoginAt: Date | null };

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

function checkInput(email: string, password: string): string {
  const normalized = normalizeEmail(email);
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized) || normalized.length > 320) throw new Error(`"${email}" is not an email address.`);
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  return normalized;
}

/** Creates a staff user; throws UserExistsError when the email is taken. */
export async function createUser(email: string, password: string): Promise<TUser> {
  const normalized = checkInput(email, password);
  const passwordHash = await hashSecret(password);
  const db = await getDb();
  const [row] = await db.insert(users).values({ email: normalized, passwordHash }).onConflictDoNothing().returning();
  if (!row) throw new UserExistsError(normalized);
  return row;
}

export async function setPassword(email: string, password: string): Promise<boolean> {
  const normalized = checkInput(email, password);
  const db = await getDb();
  const rows = await db
    .update(users)
    .set({ passwordHash: await hashSecret(password) })
    .where(eq(users.email, normalized))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function findUserByEmail(email: string): Promise<TUser | null> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return row ?? null;
}

export async function listUsers(): Promise<Omit<TUser, 'passwordHash'>[]> {
  const db = await getDb();
  return db
    .select({ id: users.id, email: users.email, createdAt: users.createdAt, lastLoginAt: users.lastLoginAt })
    .from(users)
    .orderBy(asc(users.createdAt));
}

export async function touchLastLogin(id: string): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ lastLoginAt: sql`now()` }).where(eq(users.id, id));
}

/**
 * The first admin, from CONSOLE_ADMIN_EMAIL / CONSOLE_ADMIN_PASSWORD, created at start when that
 * user does not exist yet. An existing user keeps its password (it may have been changed since).
 */
export async function ensureAdmin(): Promise<void> {
  if (await findUserByEmail(env.CONSOLE_ADMIN_EMAIL)) return;
  try {
    await createUser(env.CONSOLE_ADMIN_EMAIL, env.CONSOLE_ADMIN_PASSWORD);
  } catch (err) {
    if (!(err instanceof UserExistsError)) throw err; // another instance made it first
  }
}
