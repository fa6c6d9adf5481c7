// When to try again after a failed scheduled attempt (contract: Events and delivery).

export const RETRY_JITTER = 0.2;

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
