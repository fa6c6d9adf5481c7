import { releaseAttempt, reserveAttempt } from '@/lib/db/fixed-window';
import * as schema from '@/lib/db/schema/service';

// Slows down guessing of client secrets: at most MAX_FAILURES failed exchanges for one client id
// from one address within WINDOW_MS; past that the token endpoint answers 429 with Retry-After
// until the window ends. Kept in the database, so every instance sees the same count.

const MAX_FAILURES = 10;
const WINDOW_MS = 5 * 60 * 1000;

/** Takes a place for one exchange; the seconds to wait when the window is full, else 0. */
export function reserveTokenAttempt(key: string): Promise<number> {
  return reserveAttempt(schema.tokenFailures, [{ key, max: MAX_FAILURES }], WINDOW_MS);
}

/** A right secret: the window starts afresh. */
export function clearTokenAttempts(key: string): Promise<void> {
  return releaseAttempt(schema.tokenFailures, { clear: [key] });
}
