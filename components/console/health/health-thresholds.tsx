import { HEALTH_THRESHOLDS as T } from '@/lib/console/health/classify-health';

/** The thresholds behind the badges, stated where the badges are (read from the same constants). */
export function HealthThresholds() {
  return (
    <details className="rounded-md border border-slate-200 bg-surface px-3 py-2 text-xs text-slate-600" data-testid="health-thresholds">
      <summary className="cursor-pointer font-medium text-slate-700">How health is judged</summary>
      <ul className="mt-2 list-inside list-disc space-y-0.5">
        <li>
          <strong className="text-rose-700">failing</strong>: {T.failingStreak} or more failed attempts in a row with no success since, or a success rate below{' '}
          {T.failingSuccessRate * 100}% over the window.
        </li>
        <li>
          <strong className="text-slate-700">disabled</strong>: the webhook is disabled (by staff, after a 410 Gone, or after failing for days).
        </li>
        <li>
          <strong className="text-amber-700">degraded</strong>: a success rate below {T.degradedSuccessRate * 100}% over the window, the latest attempt failed,
          a message waiting over {T.backlogAgeSeconds / 60} min, a p95 response time of {T.slowP95Ms / 1000} s or more (the timeout is 15 s), or any arrival at
          this console&apos;s receiver that failed over the window.
        </li>
        <li>
          <strong className="text-blue-700">recovering</strong>: failing or degraded on the window&apos;s figures, but the newest attempts succeeded:{' '}
          {T.recoveringAttempts} or more in a row since the newest failure, none failing at the receiver (or, when only the receiver saw failures, the newest
          attempt succeeded after the last failed arrival), and nothing waits or is slow now. It says since when.
        </li>
        <li>
          <strong className="text-emerald-700">healthy</strong>: none of these (also when nothing was attempted in the window).
        </li>
      </ul>
      <p className="mt-2">Success rate and response times count attempts (retries included) over the window; streak, backlog and last success are as of now.</p>
      <p className="mt-1" data-testid="health-receiver-rule">
        Both sides count: for a webhook whose URL is one of this console&apos;s receivers, an arrival there in the window whose signature did not verify, or
        that the receiver answered with an error, is a failure — one answered 2xx counts as a failed attempt in the success rate, though the service counted it
        delivered. Webhooks sharing a receiver share its count; webhooks elsewhere are judged by the service&apos;s figures alone.
      </p>
    </details>
  );
}
