// The console's words and numbers, written once: pure, for server and client code alike.

/** `3 messages`, `1 message`; `many` for an irregular plural. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The console's one time format, on every page (the share page and Recover included): UTC,
 * `2026-01-31 14:05:09` (with milliseconds on request), the same on server and client. Something
 * that is not a time is shown as it is.
 */
export function formatUtc(value: string | Date, withMs = false): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, withMs ? 23 : 19)}`;
}

/** formatUtc to the minute: `2026-01-31 14:05` (UTC). */
export const formatUtcMinute = (value: string | Date): string => formatUtc(value).slice(0, 16);

/** A time of day in UTC, `14:05` (`14:05:09` with seconds), with its day (`Jan 31 14:05`) when it is not the day of `now`. */
export function formatUtcClock(value: string | Date, now: string | Date, withSeconds = false): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  const iso = d.toISOString();
  const time = iso.slice(11, withSeconds ? 19 : 16);
  if (iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10)) return time;
  return `${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${d.getUTCDate()} ${time}`;
}

/** formatUtc with its zone said, for text with no tooltip to say it (`2026-01-31 14:05:09 UTC`). */
export const formatUtcLabel = (value: string | Date, withMs = false): string => `${formatUtc(value, withMs)} UTC`;

/** An amount in cents, with its currency: `$1,500.00` (grants are in US dollars unless they say otherwise). */
export function formatMoney(cents: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** A time as the value of a datetime-local input: UTC, as every time in the console, to the minute; '' for none. */
export function toLocalInput(value?: string | Date): string {
  if (value === undefined) return '';
  return (typeof value === 'string' ? value : value.toISOString()).slice(0, 16);
}

/** A datetime-local input's value, read as UTC, as an ISO time; undefined when empty. */
export const fromLocalInput = (value: string): string | undefined => (value ? new Date(`${value.length === 16 ? `${value}:00` : value}Z`).toISOString() : undefined);
