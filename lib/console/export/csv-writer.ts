import { stringify } from 'csv-stringify/sync';

// The console's one CSV writer: every CSV it makes (a webhook's timeline export, the daily
// reconciliation) is written here, and nothing else imports csv-stringify (eslint.config.mjs).
// A spreadsheet runs a cell starting with = + - @ (or a tab or CR, or their full-width forms) as a
// formula, so such a text cell gets a leading apostrophe (csv-stringify's escape_formulas): a donor
// named =HYPERLINK(…) reads as typed, '=HYPERLINK(…) in the file. A number is written as a number,
// never escaped: a negative amount stays -1500 and sums as one. So a column that holds amounts or
// counts passes them as numbers, never as text. Money for people is a `money(cents)` cell: the
// decimal a spreadsheet sums, with two places (2500 → 25.00, -150 → -1.50), a number as well.

/** Integer cents, written as a decimal with two places. */
export type TCsvMoney = { readonly cents: number };
export type TCsvCell = string | number | TCsvMoney | null | undefined;

export const money = (cents: number): TCsvMoney => ({ cents });

function decimal(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// A money cell's text is made here from an integer, so its leading minus is a sign, not a formula:
// the cell's own options leave it unescaped, as a negative number is.
const castObject = (value: object): string | { value: string; escape_formulas: false } => {
  if (!('cents' in value) || typeof value.cents !== 'number') return JSON.stringify(value);
  const text = decimal(value.cents);
  return value.cents < 0 ? { value: text, escape_formulas: false } : text;
};

const OPTIONS = { escape_formulas: true, cast: { object: castObject } } as const;

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
