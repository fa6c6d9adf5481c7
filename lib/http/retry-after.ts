// `Retry-After` (RFC 9110 §10.2.3), read strictly: delta-seconds or an HTTP-date, nothing else.
// The worker reads it from the endpoints it delivers to (lib/service/delivery), the console's API
// client from the API (lib/console/connect-api/transport.ts).

/** The longest wait a `Retry-After` can ask for; longer ones (or a far-off date) read as this. */
export const RETRY_AFTER_MAX_SECONDS = 86_400;

// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate and the obsolete RFC 850 form, both in GMT, and
// asctime (no zone: GMT by definition). Anything else is unreadable, not whatever Date.parse guesses
// ("1.5" would be 5 January 2001).
const HTTP_DATE = /^(?:[A-Z][a-z]{2,8}, \d{2}[ -][A-Z][a-z]{2}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * `Retry-After` as seconds from `now` (a past date is 0), at most `maxSeconds`; null when absent or
 * unreadable.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  { now = Date.now(), maxSeconds = RETRY_AFTER_MAX_SECONDS }: { now?: number; maxSeconds?: number } = {},
): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value), maxSeconds);
  if (!HTTP_DATE.test(value)) return null;
  const at = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, (at - now) / 1000), maxSeconds);
}
