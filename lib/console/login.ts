import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { dummySecretHash, verifySecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { loginFailures } from '@/lib/db/schema';
import { findUserByEmail, normalizeEmail, touchLastLogin } from './users';

// Checking a staff password, with failures rate-limited per email and per source address
// (console.login_failures, a fixed window per key), so guessing is slow on every instance.

export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_SOURCE = 20;

export type TLoginResult = { ok: true; userId: string; email: string } | { ok: false; error: string; status: 400 | 401 | 429; retryAfterSeconds?: number };

const WRONG = 'Wrong email or password.';

function keysOf(email: string, source: string): { emailKey: string; sourceKey: string | null } {
  return { emailKey: `email:${normalizeEmail(email)}`, sourceKey: source ? `source:${source}` : null };
}

/** Seconds until the caller may try again, or 0 when not locked out. */
async function lockedFor(emailKey: string, sourceKey: string | null): Promise<number> {
  const db = await getDb();
  const keys = sourceKey ? [emailKey, sourceKey] : [emailKey];
  const rows = await db
    .select({
      key: loginFailures.key,
      count: loginFailures.count,
      remaining: sql<number>`ceil(extract(epoch from (${loginFailures.windowStart} + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now())))::int`,
    })
    .from(loginFailures)
    .where(inArray(loginFailures.key, keys));
  let wait = 0;
  for (const row of rows) {
    const max = row.key === emailKey ? MAX_FAILURES_PER_EMAIL : MAX_FAILURES_PER_SOURCE;
    if (row.remaining > 0 && row.count >= max) wait = Math.max(wait, row.remaining);
  }
  return wait;
}

async function recordFailure(keys: string[]): Promise<void> {
  const db = await getDb();
  for (const key of keys) {
    // A fixed window per key: an expired window starts again at 1.
    await db
      .insert(loginFailures)
      .values({ key, count: 1 })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          count: sql`case when ${loginFailures.windowStart} < now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}) then 1 else ${loginFailures.count} + 1 end`,
          windowStart: sql`case when ${loginFailures.windowStart} < now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}) then now() else ${loginFailures.windowStart} end`,
        },
      });
  }
}

async function clearFailures(key: string): Promise<void> {
  const db = await getDb();
  await db.delete(loginFailures).where(inArray(loginFailures.key, [key]));
}

export function tooManyMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** Checks the credentials; the same work (one scrypt) whether or not the user exists. */
export async function attemptLogin(input: { email: string; password: string; source: string }): Promise<TLoginResult> {
  const email = normalizeEmail(input.email ?? '');
  if (!email || !input.password) return { ok: false, status: 400, error: 'Enter your email and password.' };
  if (email.length > 320 || input.password.length > 1024) return { ok: false, status: 401, error: WRONG };
  const { emailKey, sourceKey } = keysOf(email, input.source);
  const wait = await lockedFor(emailKey, sourceKey);
  if (wait > 0) return { ok: false, status: 429, error: tooManyMessage(wait), retryAfterSeconds: wait };
  const user = await findUserByEmail(email);
  const ok = await verifySecret(input.password, user?.passwordHash ?? (await dummySecretHash()));
  if (!user || !ok) {
    await recordFailure(sourceKey ? [emailKey, sourceKey] : [emailKey]);
    return { ok: false, status: 401, error: WRONG };
  }
  await clearFailures(emailKey);
  await touchLastLogin(user.id);
  return { ok: true, userId: user.id, email: user.email };
}
