import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIRST_ROWS_MAX, searchBack, STEP_MAX } from '@/lib/db/search-back';

// The time-budgeted search (issue 42) against an in-memory table and a clock the test moves: each
// row a slice looks at costs COST ms of "work". Whatever the budget and however the rows bunch up
// (many in one millisecond, as a batch INSERT writes them), following `searchedUntil` finds every
// match exactly once, and a budget that suffices answers complete.

type TRow = { id: number; at: number; match: boolean };
const COST = 0.01;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20);

function table(rows: TRow[]) {
  let now = 0;
  const clock = () => now;
  const inWindow = (since: Date, until: Date) =>
    rows.filter((r) => r.at >= since.getTime() && r.at < until.getTime()).sort((a, b) => b.at - a.at || b.id - a.id);
  const search = (since: Date, until: Date, budgetMs: number, limit = 1000) =>
    searchBack<TRow>({
      since,
      top: until,
      limit,
      budgetMs,
      clock,
      nthNewest: async (n) => {
        const r = inWindow(since, until)[n - 1];
        return r ? new Date(r.at) : null;
      },
      slice: async (from, to, max) => {
        const seen = inWindow(from, to ?? until);
        now += seen.length * COST + 0.5; // a query's own cost, and each row it looks at
        return seen.filter((r) => r.match).slice(0, max);
      },
    });
  return { search };
}

/** Every match of [since, until) by following the continuation; how many searches it took and how many were partial. */
async function followAll(t: ReturnType<typeof table>, since: Date, until: Date, budgetMs: number) {
  const found: number[] = [];
  let top = until;
  let searches = 0;
  let partials = 0;
  for (;;) {
    const r = await t.search(since, top, budgetMs);
    searches++;
    found.push(...r.rows.map((x) => x.id));
    for (const x of r.rows)
      assert.ok(x.at < top.getTime() && (!r.searchedUntil || x.at >= r.searchedUntil.getTime()), 'a row outside what the answer says it searched');
    if (!r.partial) return { found, searches, partials };
    partials++;
    assert.ok(r.searchedUntil && r.searchedUntil < top && r.searchedUntil > since, 'each continuation goes back further');
    top = r.searchedUntil!;
  }
}

function rowsOver(days: number, n: number, bunch = 1): TRow[] {
  return Array.from({ length: n }, (_, i) => ({ id: i, at: T0 - Math.floor(i / bunch) * Math.floor((days * DAY) / n) * bunch, match: i % 7 === 3 }));
}

test('a 1 ms budget: every search but the last is partial, and the continuations find every match exactly once', async () => {
  const rows = rowsOver(7, 500);
  const since = new Date(T0 - 7 * DAY - 1);
  const until = new Date(T0 + 1);
  const { found, searches, partials } = await followAll(table(rows), since, until, 1);
  assert.ok(searches > 10, `took ${searches} searches`);
  assert.equal(partials, searches - 1);
  assert.deepEqual(
    found,
    rows.filter((r) => r.match).map((r) => r.id),
  );
});

test('rows bunched in one millisecond (a batch INSERT) are neither repeated nor missed', async () => {
  const rows = rowsOver(2, 600, 50);
  const since = new Date(T0 - 3 * DAY);
  const until = new Date(T0 + 1);
  for (const budget of [1, 3, 20]) {
    const { found } = await followAll(table(rows), since, until, budget);
    assert.deepEqual(
      [...found].sort((a, b) => a - b),
      rows.filter((r) => r.match).map((r) => r.id),
      `budget ${budget}`,
    );
  }
});

test('a budget the window fits in answers complete in one search; the page limit stops it without partial', async () => {
  const rows = rowsOver(7, 5000);
  const t = table(rows);
  const since = new Date(T0 - 8 * DAY);
  const until = new Date(T0 + 1);
  const whole = await t.search(since, until, 1000);
  assert.equal(whole.partial, false);
  assert.equal(whole.searchedUntil, null);
  assert.equal(whole.rows.length, rows.filter((r) => r.match).length);
  const page = await t.search(since, until, 1000, 26);
  assert.equal(page.partial, false);
  assert.equal(page.rows.length, 26);
});

test('a window too large for the budget stops near it, having searched the newest part', async () => {
  const rows = rowsOver(7, 400_000);
  const t = table(rows);
  const r = await t.search(new Date(T0 - 8 * DAY), new Date(T0 + 1), 1000, 1_000_000);
  assert.equal(r.partial, true);
  // 400k rows at 0.01 ms are 4 s of work: about a quarter of the window fits in 1 s.
  const searched = rows.filter((x) => x.at >= r.searchedUntil!.getTime()).length;
  assert.ok(searched > FIRST_ROWS_MAX && searched <= 100_000, `searched ${searched} rows`);
  assert.ok(searched >= 60_000, `searched ${searched} rows: the budget is used, not left idle`);
});

/** A table whose slices cost `factor(i)` times their rows' work: the other half's queries landing in some slices and not others. */
function unevenTable(rows: TRow[], factor: (i: number) => number) {
  let now = 0;
  const costs: number[] = [];
  const inWindow = (since: Date, until: Date) =>
    rows.filter((r) => r.at >= since.getTime() && r.at < until.getTime()).sort((a, b) => b.at - a.at || b.id - a.id);
  const search = (since: Date, until: Date, budgetMs: number) =>
    searchBack<TRow>({
      since,
      top: until,
      limit: 1_000_000,
      budgetMs,
      clock: () => now,
      nthNewest: async (n) => {
        const r = inWindow(since, until)[n - 1];
        return r ? new Date(r.at) : null;
      },
      slice: async (from, to, max) => {
        const seen = inWindow(from, to ?? until);
        const cost = (seen.length * COST + 0.5) * factor(costs.length);
        costs.push(cost);
        now += cost;
        return seen.filter((r) => r.match).slice(0, max);
      },
    });
  return { search, costs, elapsed: () => now };
}

test('no slice holds the store for more than a tenth of the budget, and slices 3x dearer than forecast overrun it by at most 3 x STEP_MAX', async () => {
  const rows = rowsOver(7, 400_000);
  const since = new Date(T0 - 8 * DAY);
  const until = new Date(T0 + 1);
  const even = unevenTable(rows, () => 1);
  assert.equal((await even.search(since, until, 1000)).partial, true);
  assert.ok(Math.max(...even.costs) <= 100, `a slice cost ${Math.max(...even.costs)} ms of a 1000 ms budget`);
  // Every other slice three times as dear: the forecast from the cheap one is off by 3x.
  const uneven = unevenTable(rows, (i) => (i % 2 ? 3 : 1));
  const r = await uneven.search(since, until, 1000);
  assert.equal(r.partial, true);
  assert.ok(uneven.elapsed() <= 1000 * (1 + 3 * STEP_MAX), `ended at ${uneven.elapsed()} ms of a 1000 ms budget`);
});
