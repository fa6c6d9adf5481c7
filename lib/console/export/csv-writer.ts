import { stringify } from 'csv-stringify/sync';

// The console's one CSV writer: every CSV it makes (a webhook's timeline export, the daily
// reconciliation) is written here, and nothing else imports csv-stringify (eslint.config.mjs).
// A spreadsheet runs a cell starting with = + - @ (or a tab or CR, or their full-width forms) as a
// formula, so such a text cell gets a leading apostrophe (csv-stringify's escape_formulas): a donor
// named =HYPERLINK(…) reads as typed, '=HYPERLINK(…) in the file. A number is written as a number,
// never escaped: a negative amount stays -1500 and sums as one. So a column that holds amounts or
// counts passes them as numbers, never as text.

export type TCsvCell = string | number | null | undefined;

const OPTIONS = { escape_formulas: true } as const;

/** Rows as CSV text, each ending in a newline; with `columns`, a header row first. */
export function csvRows(rows: TCsvCell[][], columns?: readonly string[]): string {
  return stringify(rows, columns ? { ...OPTIONS, header: true, columns: [...columns] } : OPTIONS);
}

/** One row's cells joined, without the newline (a piece of a row the caller puts together). */
export function csvLine(cells: TCsvCell[]): string {
  return stringify([cells], OPTIONS).slice(0, -1);
}

/** The header row alone: what an empty export holds. */
export function csvHeader(columns: readonly string[]): string {
  return stringify([], { ...OPTIONS, header: true, columns: [...columns] });
}
