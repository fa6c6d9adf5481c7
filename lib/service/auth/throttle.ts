import { eq, sql } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';

// Slows down guessing of client secrets: after MAX_FAILURES failed exchanges for one client id
// from one address within WINDOW_MS, the token endpoint answers 429 with Retry-After until the
// window ends. Kept in the database, so every instance sees the same count.

const MAX_FAILURES = 10;
const WINDOW_MS = 5 * 60 * 1000;
const t = schema.tokenFailures;

/** Seconds to wait when this key is over the limit, else 0. */
export async function tokenRetryAfter(key: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select().from(t).where(eq(t.key, key));
  if (!row || row.count < MAX_FAILURES) return 0;
  const left = row.windowStart.getTime() + WINDOW_MS - Date.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export async function recordTokenFailure(key: string): Promise<void> {
  const db = await getDb();
  const expired = sql`${t.windowStart} < now() - ${WINDOW_MS}::int * interval '1 millisecond'`;
  await db
    .insert(t)
    .values({ key, count: 1 })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${expired} then 1 else ${t.count} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${t.windowStart} end`,
      },
    });
}

export async function clearTokenFailures(key: string): Promise<void> {
  const db = await getDb();
  await db.delete(t).where(eq(t.key, key));
}
