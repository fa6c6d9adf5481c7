// The console's words and times, written once: pure, for server and client code alike (money, which
// the donor's pages write too, is lib/money.ts).

/** `3 messages`, `1 message`; `many` for an irregular plural. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

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

const ISO_INSTANT = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)/g;

/**
 * A sentence from the API (a webhook's `disabledReason`: "failing with no success since
 * 2026-11-29T03:26:28Z") with each RFC 3339 time in it written as `format` writes times
 * (formatUtcLabel by default), so it reads like the times beside it.
 */
export function withReadableTimes(text: string, format: (iso: string) => string = formatUtcLabel): string {
  return text.replace(ISO_INSTANT, (iso) => (Number.isNaN(Date.parse(iso)) ? iso : format(iso)));
}

/** The format of the console's time fields, as their placeholder says it: UTC, to the minute. */
export const UTC_INPUT_FORMAT = 'YYYY-MM-DD HH:MM';

/**
 * A time as the value of a console time field: UTC, to the minute, `2026-11-29 03:26` — one fixed
 * format whatever the browser's locale (a datetime-local input shows the locale's, "11/29/2026,
 * 03:26 AM", under a label saying UTC); '' for none.
 */
export function toUtcInput(value?: string | Date): string {
  if (value === undefined) return '';
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? String(value) : formatUtcMinute(d);
}

/** A time field's value, read as UTC, as an ISO time; undefined when empty; what does not read as a time, as it was typed (the server's check names it). */
export function fromUtcInput(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(?::\d\d)?)$/.exec(v);
  const at = m ? Date.parse(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}Z`) : NaN;
  return Number.isNaN(at) ? v : new Date(at).toISOString();
}
