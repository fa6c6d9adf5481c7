import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { dummySecretHash, verifySecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { loginFailures } from '@/lib/db/schema';
import { findUserByEmail, normalizeEmail, touchLastLogin } from './users';

// Checking a staff password, rate-limited in console.login_failures (a fixed window per key, so
// guessing is slow on every instance):
// - per email and source address: 5 — the guesser at one address is stopped quickly, while the
//   owner of the email, signing in from elsewhere, is not locked out by it;
// - per source address: 20 — one address cannot spray many emails;
// - per email: 100 — a backstop that slows a guess spread over many addresses, without making a
//   lockout of the admin cheap (it takes 20 addresses).
// Each attempt takes its place in all three windows before the password is checked, row-locked in
// one transaction, so parallel requests cannot slip past a limit; a right password gives it back.

export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL_AND_SOURCE = 5;
export const MAX_FAILURES_PER_SOURCE = 20;
export const MAX_FAILURES_PER_EMAIL = 100;

export type TLoginResult = { ok: true; userId: string; email: string } | { ok: false; error: string; status: 400 | 401 | 429; retryAfterSeconds?: number };

const WRONG = 'Wrong email or password.';

type TLimit = { key: string; max: number };

function limitsOf(email: string, source: string): { pair: TLimit; source: TLimit; email: TLimit } {
  // No address (not behind scripts/server.mjs): one shared bucket, stricter rather than none.
  const from = source || 'unknown';
  return {
    pair: { key: `email+source:${email}|${from}`, max: MAX_FAILURES_PER_EMAIL_AND_SOURCE },
    source: { key: `source:${from}`, max: MAX_FAILURES_PER_SOURCE },
    email: { key: `email:${email}`, max: MAX_FAILURES_PER_EMAIL },
  };
}

const expired = sql`${loginFailures.windowStart} < now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})`;

class LimitReached extends Error {
  constructor(readonly waitSeconds: number) {
    super('limit reached');
  }
}

/**
 * Counts one attempt against every limit, or none when any limit is reached (then the seconds to
 * wait). A fixed window per key: an expired window starts again at 1.
 */
async function reserveAttempt(limits: TLimit[]): Promise<number> {
  const db = await getDb();
  // Keys in a fixed order, so two transactions never wait on each other's rows crosswise.
  const ordered = [...limits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  try {
    await db.transaction(async (tx) => {
      for (const { key, max } of ordered) {
        const counted = await tx
          .insert(loginFailures)
          .values({ key, count: 1 })
          .onConflictDoUpdate({
            target: loginFailures.key,
            set: {
              count: sql`case when ${expired} then 1 else ${loginFailures.count} + 1 end`,
              windowStart: sql`case when ${expired} then now() else ${loginFailures.windowStart} end`,
            },
            setWhere: sql`${expired} or ${loginFailures.count} < ${max}`,
          })
          .returning({ count: loginFailures.count });
        if (counted.length === 0) {
          const [row] = await tx
            .select({ remaining: sql<number>`ceil(extract(epoch from (${loginFailures.windowStart} + make_interval(mins => ${LOGIN_WINDOW_MINUTES}) - now())))::int` })
            .from(loginFailures)
            .where(inArray(loginFailures.key, [key]));
          throw new LimitReached(Math.max(1, row?.remaining ?? LOGIN_WINDOW_MINUTES * 60));
        }
      }
    });
    return 0;
  } catch (err) {
    if (err instanceof LimitReached) return err.waitSeconds;
    throw err;
  }
}

/** After a right password: the attempt was no failure, and this address starts afresh for this email. */
async function releaseAttempt(pair: TLimit, others: TLimit[]): Promise<void> {
  const db = await getDb();
  await db.delete(loginFailures).where(inArray(loginFailures.key, [pair.key]));
  await db
    .update(loginFailures)
    .set({ count: sql`greatest(${loginFailures.count} - 1, 0)` })
    .where(inArray(loginFailures.key, others.map((l) => l.key)));
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
  const limits = limitsOf(email, input.source);
  const wait = await reserveAttempt([limits.pair, limits.source, limits.email]);
  if (wait > 0) return { ok: false, status: 429, error: tooManyMessage(wait), retryAfterSeconds: wait };
  const user = await findUserByEmail(email);
  const ok = await verifySecret(input.password, user?.passwordHash ?? (await dummySecretHash()));
  if (!user || !ok) return { ok: false, status: 401, error: WRONG };
  await releaseAttempt(limits.pair, [limits.source, limits.email]);
  await touchLastLogin(user.id);
  return { ok: true, userId: user.id, email: user.email };
}
