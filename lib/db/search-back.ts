// A payload search within a time budget (issue 42): the window is searched newest first, one time
// slice after another, until the page is full, the window is searched, or SEARCH_BUDGET_MS of work
// is spent. Then the answer says how far back it looked (`searchedUntil`): every matching row from
// there to the window's end is in it, none older, so a search with `until` (the console) or `before`
// (the API) set to that instant goes on from there without repeating or missing a row.
//
// Each slice is one query the planner plans on its own (the GIN index for a rare value, the time
// index row by row for words found everywhere). The first slice holds the window's newest rows
// (FIRST_ROWS_PER_MS per ms of budget, at most FIRST_ROWS_MAX: what the two-plan search tested one
// by one before); each next slice is as wide as the last one's cost per ms of window says fits in
// half of what is left (at most a twentieth of the budget), and at most GROWTH times as wide.
// Boundaries are whole milliseconds, each slice [from, to): an instant a row can be compared with
// exactly on both sides of the wire (JSON timestamps are milliseconds; a row at 10:00:00.123456 is
// at or after 10:00:00.123).
// Only a slice far denser than the one before it can overrun the budget, by that slice.

export const FIRST_ROWS_PER_MS = 2;
export const FIRST_ROWS_MAX = 2000;
const GROWTH = 8;
/** Of what is left of the budget, the share the next slice is sized for (its cost is a forecast)… */
const SHARE = 0.5;
/**
 * …and at most this share of the whole budget. Small, for two reasons seen on the embedded store at
 * 1M rows (console p90 2.2 s, then 1.3 s with 0.7 / 0.2): a query there holds the event loop while it
 * runs, so a long slice of the console's receipts search delayed the service's request for the
 * other half (whose budget starts only when it arrives); and a forecast made while the other half's
 * queries interleave can be off by 2–3×, so the last slice overruns by up to that many of this share.
 */
export const STEP_MAX = 0.05;
/** Less than this share of the budget left: not worth another query. */
const ENOUGH = 0.05;

export type TSearchBack<T> = {
  rows: T[];
  /** True when the budget ran out before the window's start: `searchedUntil` says how far it got. */
  partial: boolean;
  /** With partial: the instant searched back to (every match at or after it is in rows). */
  searchedUntil: Date | null;
};

export type TSearchBackOptions<T> = {
  /** The window's start: the last slice begins here. */
  since: Date;
  /** Where the search starts back from: the window's end (or a page cursor's instant). */
  top: Date;
  /** Stop when this many rows are found (a page and one more, to know there are more). */
  limit: number;
  budgetMs: number;
  /** The instant of the window's `n`-th newest row (any, matching or not), null when it holds fewer. */
  nthNewest: (n: number) => Promise<Date | null>;
  /** The matching rows in [from, to), newest first, at most `limit` (to null: up to the window's end). */
  slice: (from: Date, to: Date | null, limit: number) => Promise<T[]>;
  clock?: () => number;
};

export async function searchBack<T>({
  since,
  top,
  limit,
  budgetMs,
  nthNewest,
  slice,
  clock = () => performance.now(),
}: TSearchBackOptions<T>): Promise<TSearchBack<T>> {
  const start = clock();
  const firstRows = Math.max(1, Math.min(FIRST_ROWS_MAX, Math.round(budgetMs * FIRST_ROWS_PER_MS)));
  const nth = await nthNewest(firstRows);
  let from = nth && nth > since ? nth : since;
  let to: Date | null = null;
  const rows: T[] = [];
  for (;;) {
    const t0 = clock();
    rows.push(...(await slice(from, to, limit - rows.length)));
    const took = clock() - t0;
    if (rows.length >= limit || from <= since) return { rows, partial: false, searchedUntil: null };
    const left = budgetMs - (clock() - start);
    if (left <= budgetMs * ENOUGH) return { rows, partial: true, searchedUntil: from };
    const width = Math.max(1, (to ?? top).getTime() - from.getTime());
    const fits = took > 0 ? (Math.min(left * SHARE, budgetMs * STEP_MAX) * width) / took : Infinity;
    const next = Math.max(1, Math.floor(Math.min(width * GROWTH, fits)));
    to = from;
    from = new Date(Math.max(since.getTime(), from.getTime() - next));
    // Let the event loop run between slices: the embedded store's queries resolve without yielding
    // to it, so the console's receipts search would hold off the service's request for the other
    // half until its budget ran out (the two budgets then spent one after the other, not together).
    await new Promise((resolve) => setImmediate(resolve));
  }
}
