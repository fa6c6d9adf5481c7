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

/** p (0–1) of the counts per bucket (the index is the bucket), by the nearest-rank method; null when empty. */
export function percentileOf(counts: ReadonlyMap<number, number>, p: number): number | null {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const k of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(k)!;
    if (seen >= rank) return bucketValue(k);
  }
  return null;
}

export function percentilesOf(counts: ReadonlyMap<number, number>): { p50: number | null; p95: number | null; p99: number | null } {
  return { p50: percentileOf(counts, 0.5), p95: percentileOf(counts, 0.95), p99: percentileOf(counts, 0.99) };
}
