// When to try again after a failed scheduled attempt (contract: Events and delivery).

export const RETRY_JITTER = 0.2;

// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate and the obsolete RFC 850 form, both in GMT, and
// asctime (no zone: GMT by definition). Anything else is unreadable, not whatever Date.parse guesses
// ("1.5" would be 5 January 2001).
const HTTP_DATE = /^(?:[A-Z][a-z]{2,8}, \d{2}[ -][A-Z][a-z]{2}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** `Retry-After` as seconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (!HTTP_DATE.test(value)) return null;
  const at = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - now) / 1000);
}

/**
 * Milliseconds until the next attempt after the `attemptNumber`-th scheduled attempt failed, or
 * null when the schedule is spent. Each delay gets ±20 % jitter; a `Retry-After` (sent with 429
 * or 503) is honoured within [delay, 2 × delay].
 */
export function nextRetryDelayMs(
  attemptNumber: number,
  schedule: number[],
  { statusCode, retryAfterSeconds, random = Math.random }: { statusCode: number; retryAfterSeconds: number | null; random?: () => number },
): number | null {
  if (attemptNumber > schedule.length) return null;
  const delay = schedule[attemptNumber - 1] * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random());
  if ((statusCode === 429 || statusCode === 503) && retryAfterSeconds !== null) {
    return Math.min(Math.max(retryAfterSeconds * 1000, delay), 2 * delay);
  }
  return delay;
}
