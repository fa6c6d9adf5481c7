import { sql } from 'drizzle-orm';
import { getDb } from './client';
import { queryRows } from './query';
import type { loginFailures, tokenFailures } from './schema';

// Fixed-window attempt counters, shared by the console's login limit and the service's token
// endpoint limit (each with its own table of the same shape: key, count, window_start). An attempt
// takes its place in every window before the secret is checked, row-locked in one transaction, so
// parallel requests cannot slip past a limit; a right secret gives it back. Rows whose window has
// ended are deleted as attempts come in, so the table holds only the current windows' keys,
// however many addresses or client ids an attacker sprays.

export type TCounterTable = typeof loginFailures | typeof tokenFailures;
export type TLimit = { key: string; max: number };

class LimitReached extends Error {
  constructor(readonly waitSeconds: number) {
    super('limit reached');
  }
}

/** Counts one attempt in every window, or in none when any is full: then the seconds to wait (else 0). */
export async function reserveAttempt(table: TCounterTable, limits: TLimit[], windowMs: number): Promise<number> {
  const db = await getDb();
  // Keys in a fixed order, so two transactions never wait on each other's rows crosswise.
  const ordered = [...limits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const expired = sql`t.window_start < now() - ${windowMs}::int * interval '1 millisecond'`;
  await db.execute(sql`delete from ${table} where window_start < now() - ${windowMs}::int * interval '1 millisecond'`);
  try {
    await db.transaction(async (tx) => {
      for (const { key, max } of ordered) {
        const counted = await queryRows<{ count: number }>(
          tx,
          sql`insert into ${table} as t (key, count, window_start) values (${key}, 1, now())
              on conflict (key) do update set
                count = case when ${expired} then 1 else t.count + 1 end,
                window_start = case when ${expired} then now() else t.window_start end
              where ${expired} or t.count < ${max}::int
              returning t.count`,
        );
        if (counted.length === 0) {
          const [row] = await queryRows<{ remaining: number }>(
            tx,
            sql`select ceil(extract(epoch from (t.window_start + ${windowMs}::int * interval '1 millisecond' - now())))::int as remaining
                from ${table} as t where t.key = ${key}`,
          );
          throw new LimitReached(Math.max(1, Number(row?.remaining ?? windowMs / 1000)));
        }
      }
    });
    return 0;
  } catch (err) {
    if (err instanceof LimitReached) return err.waitSeconds;
    throw err;
  }
}

/** After a right secret: `clear` windows start afresh, and the attempt is given back in `giveBack`. */
export async function releaseAttempt(table: TCounterTable, { clear = [], giveBack = [] }: { clear?: string[]; giveBack?: string[] }): Promise<void> {
  const db = await getDb();
  for (const key of clear) await db.execute(sql`delete from ${table} where key = ${key}`);
  for (const key of giveBack) await db.execute(sql`update ${table} set count = greatest(count - 1, 0) where key = ${key}`);
}
