import { metrics } from './registry';

export type TAttemptOutcome = 'success' | 'http_error' | 'network_error';

/** Counts one finished delivery attempt and its duration (in memory; no I/O). */
export function countAttempt(result: { ok: boolean; statusCode: number; durationMs: number }, trigger: 'scheduled' | 'manual'): void {
  const outcome: TAttemptOutcome = result.ok ? 'success' : result.statusCode === 0 ? 'network_error' : 'http_error';
  const m = metrics();
  m.deliveryAttempts.inc({ outcome, trigger });
  m.deliveryDuration.observe({ outcome }, result.durationMs / 1000);
}
