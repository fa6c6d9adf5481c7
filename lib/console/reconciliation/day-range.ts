// A calendar day in a time zone (CONSOLE_TIME_ZONE) as the UTC instants it runs between:
// [local midnight, next local midnight), however long the day (23 or 25 hours on a DST change).
// Pure, with Intl only.

import { wallClock, wallClockText } from '@/lib/console/wall-clock';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The zone's offset from UTC at `utcMs`, in ms (local wall time − UTC). */
function offsetAt(utcMs: number, timeZone: string): number {
  const w = wallClock(new Date(utcMs), timeZone);
  const wall = Date.UTC(Number(w.year), Number(w.month) - 1, Number(w.day), Number(w.hour), Number(w.minute), Number(w.second));
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** The UTC instant of local midnight starting y-m-d in the zone. */
function midnight(y: number, m: number, d: number, timeZone: string): number {
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offsetAt(guess, timeZone);
  // Once more at the found instant: the offset may differ there (a DST change near midnight).
  return guess - offsetAt(first, timeZone);
}

/** Whether `date` is a real YYYY-MM-DD (2026-02-30 is not). */
export function isDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === date && Number(m[1]) >= 1970;
}

export function dayRange(date: string, timeZone: string): { after: string; before: string } {
  const m = DATE.exec(date);
  if (!m || !isDate(date)) throw new Error(`not a date: ${date}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const next = new Date(Date.UTC(y, mo - 1, d + 1));
  return {
    after: new Date(midnight(y, mo, d, timeZone)).toISOString(),
    before: new Date(midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone)).toISOString(),
  };
}

// The instants the service reads: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** The first and last days whose whole range in the zone the service can read (1970-01-01 or -02, 9999-12-30 or -31). */
export function readableDays(timeZone: string): { first: string; last: string } {
  const first = Date.parse(dayRange('1970-01-01', timeZone).after) >= 0 ? '1970-01-01' : '1970-01-02';
  const last = new Date(dayRange('9999-12-31', timeZone).before).getTime() <= LATEST_MS ? '9999-12-31' : '9999-12-30';
  return { first, last };
}

/** The date (YYYY-MM-DD) it is at `now` in the zone. */
export function dateIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The wall-clock time of `iso` in the zone, `2026-11-28 23:15:02` (what a spreadsheet reads as a date and time). */
export function localTime(iso: string, timeZone: string): string {
  return wallClockText(new Date(iso), timeZone);
}
