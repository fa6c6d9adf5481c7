import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { sessions, users } from '@/lib/db/schema/console';
import { randomString } from '@/lib/ids';

// The server side of a staff session: one row per sign-in, looked up on every request.

export const SESSION_ID = /^[A-Za-z0-9]{32}$/;

export async function createSessionRow(userId: string, ttlSeconds: number): Promise<string> {
  const db = await getDb();
  // Expired rows are cleared as new ones are made, so the table stays as small as the live sessions.
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
  const id = randomString(32);
  await db.insert(sessions).values({ id, userId, expiresAt: sql`now() + ${ttlSeconds}::int * interval '1 second'` });
  return id;
}

export type TSessionUser = { id: string; email: string; role: string; mustChangePassword: boolean; hasPassword: boolean; theme: string };

/** The live session's user: a deactivated user has none (and its rows are deleted when it is deactivated). */
export async function findSessionUser(id: string): Promise<TSessionUser | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      mustChangePassword: users.mustChangePassword,
      theme: users.theme,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`), isNull(users.disabledAt)))
    .limit(1);
  return row ?? null;
}

export async function deleteSessionRow(id: string): Promise<void> {
  const db = await getDb();
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Ends every session of a user at once (deactivation, a password reset). */
export async function deleteUserSessions(userId: string): Promise<void> {
  const db = await getDb();
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Ends every session of a user but `keep` (their own, after they changed their password). */
export async function deleteOtherSessions(userId: string, keep: string): Promise<void> {
  const db = await getDb();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keep)));
}
