// Response times counted in buckets (service.attempt_rollups.latency_bucket, migration 0012's
// service.latency_bucket): 0 under 1 ms, then bucket k holds [1.25^(k-1), 1.25^k) ms, up to 64. A
// percentile read back from them is the geometric middle of its bucket: within 12 % of the exact
// value (√1.25 ≈ 1.118), which docs/API.md states.

export const LATENCY_GROWTH = 1.25;
export const MAX_LATENCY_BUCKET = 64;

/** The bucket of a response time, exactly as the SQL function computes it. */
export function latencyBucket(ms: number): number {
  if (ms < 1) return 0;
  return Math.min(MAX_LATENCY_BUCKET, 1 + Math.floor(Math.log(ms) / Math.log(LATENCY_GROWTH)));
}

/** The value reported for a bucket: 0 for the first, else the geometric middle of its bounds. */
export function bucketValue(k: number): number {
  if (k <= 0) return 0;
  return Math.round(LATENCY_GROWTH ** (k - 0.5) * 10) / 10;
}

/** Latency buckets 0 to MAX_LATENCY_BUCKET: the length of a histogram. */
export const LATENCY_BUCKETS = MAX_LATENCY_BUCKET + 1;

/** A histogram with no attempts: counts per latency bucket (the index is the bucket). */
export const emptyCounts = (): number[] => new Array<number>(LATENCY_BUCKETS).fill(0);

/** p (0–1) of the counts per bucket (the index is the bucket), by the nearest-rank method; null when empty. */
export function percentileOf(counts: readonly number[], p: number, total = counts.reduce((a, b) => a + b, 0)): number | null {
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let k = 0; k < counts.length; k++) {
    seen += counts[k];
    if (seen >= rank) return bucketValue(k);
  }
  return null;
}

export function percentilesOf(counts: readonly number[]): { p50: number | null; p95: number | null; p99: number | null } {
  const total = counts.reduce((a, b) => a + b, 0);
  return { p50: percentileOf(counts, 0.5, total), p95: percentileOf(counts, 0.95, total), p99: percentileOf(counts, 0.99, total) };
}

/**
 * A histogram as PostgreSQL prints an integer[] (`{0,3,…}`: whole numbers, no NULLs), read with a
 * loop over its characters: the driver's general array parser cost ~3 ms for a 20-webhook day.
 */
export function parseCounts(text: string): number[] {
  const out: number[] = [];
  let n = 0;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n = n * 10 + (c - 48);
    else {
      out.push(n);
      n = 0;
    }
  }
  return out;
}
