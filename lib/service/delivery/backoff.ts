const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;

/** The wait before try `n` (from 1) after the store was unavailable: doubling from 100 ms to 5 s, ±20 %. */
export function backoffMs(n: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, n - 1)) * (0.8 + Math.random() * 0.4);
}
