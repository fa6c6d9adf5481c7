import { driverRows } from './query';
import type { TPassState } from './purge-loop';

// The body purges' cursor within a pass. A batch takes the due rows oldest first, and passes over the held ones among them
// (a failed delivery's answers, a receipt that failed its check: kept past their retention until resolved). Without a
// cursor each batch read all the held rows before its own again, and checked each one's hold (a later valid arrival of
// the same message, probed in every newer partition): a pass grew with the square of what was held, and its batches,
// each slower than the purge's 50 ms target, shrank to ten rows. On the year bench's store at full size (PostgreSQL,
// 2.2M attempts and receipts kept) one batch of receipts' bodies read 277k buffers to take 500 rows. With the cursor a
// batch starts at the time of the last row the one before took (`>=`: rows of that same time are read again, once);
// the held rows it passed are looked at again by the next pass, which starts from the oldest.

/** The SQL condition `column >= the cursor`, the cursor being parameter `$n` (null: from the oldest). */
export const fromCursor = (column: string, n: number) => `${column} >= coalesce($${n}::timestamptz, '-infinity'::timestamptz)`;

/** The cursor of `key` in this pass: the parameter to pass for fromCursor. */
export const cursorOf = (pass: TPassState, key: string): string | null => pass.get(key) ?? null;

/** Moves `key`'s cursor to `at` (the newest time a batch took), when it took any. */
export function advanceCursor(pass: TPassState, key: string, at: Date | string | null | undefined): void {
  if (at !== null && at !== undefined) pass.set(key, new Date(at).toISOString());
}

/** Runs a purge statement ending in progressCte(…, { cursor: true }): its count, with the cursor moved to its newest row. */
export async function countAdvancing(pass: TPassState, key: string, text: string, params: unknown[]): Promise<number> {
  const [row] = await driverRows<{ n: number; after: Date | string | null }>(text, params);
  advanceCursor(pass, key, row?.after);
  return row?.n ?? 0;
}

/** The newest of the rows' times (the archive path's batches, read before they are purged). */
export const newestOf = (times: (Date | string)[]): string | null =>
  times.length ? new Date(Math.max(...times.map((t) => new Date(t).getTime()))).toISOString() : null;
