// Durations as settings write them: a whole number and one unit, `90d`, `12h`, `30m`, `45s`
// (RECEIPT_BODY_RETENTION and the other retention settings). One parser, one formatter.

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;
type TUnit = keyof typeof UNIT_MS;

/** Milliseconds of `90d` / `12h` / `30m` / `45s` (surrounding spaces allowed); null when it is not one of those. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d{1,7})\s*([dhms])\s*$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n > 0 ? n * UNIT_MS[m[2] as TUnit] : null;
}

/** The largest unit that divides `ms` exactly: 2592000000 → `30d`, 5000 → `5s`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}
