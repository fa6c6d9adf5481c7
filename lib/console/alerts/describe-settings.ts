// What the alerts page says about the settings in force, so it cannot drift from them: where an
// alert may be sent (lib/console/alerts/alert-target.ts applies the same rule) and how often the
// worker evaluates the rules (ALERT_EVAL_MS, lib/console/alerts/alert-loop.ts).

/** The target rule in one sentence, for `DELIVERY_ALLOW_PRIVATE`. */
export function alertTargetRule(allowLoopback: boolean): string {
  return allowLoopback
    ? 'Public addresses, or loopback (this instance has DELIVERY_ALLOW_PRIVATE=true); never private, link-local or other special ranges.'
    : 'Public addresses only (no loopback, private or other special ranges).';
}

/** An interval in the unit a person reads it in: "200 ms", "30 s", "1.5 min", "1 h". */
export function formatInterval(ms: number): string {
  const round = (n: number) => String(Math.round(n * 10) / 10);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 3_600_000)} h`;
}
