import { plural } from '@/lib/console/format';

// A webhook's outage gap (outage-gap.ts reads it from the service) in words: plain values, so client
// components show it too.

export type TWindow = { since: string; until: string };

export type TOutageGap = {
  webhookId: string;
  disabledAt: string;
  /** null: still disabled (the counts are what it has missed so far; nothing can be sent yet). */
  enabledAt: string | null;
  failingSince: string | null;
  /** Never sent to it: made while it was disabled (replay-missing). */
  missing: number;
  /** Failed for good over the stretch and the disabled time (recover). */
  failed: number;
  missingWindow: TWindow;
  failedWindow: TWindow;
};

/**
 * "05:10–09:42" (UTC; with the day when it is not today's, or the two differ). An outage that lasted
 * under a minute is told to the second with its length, "23:21:05–23:21:34 (29 s)", never "23:21–23:21".
 */
export function gapSpan(gap: Pick<TOutageGap, 'disabledAt' | 'enabledAt'>, now = new Date()): string {
  const iso = (value: string) => new Date(value).toISOString();
  const start = iso(gap.disabledAt);
  const end = gap.enabledAt ? iso(gap.enabledAt) : now.toISOString();
  const day = (t: string) => t.slice(0, 10);
  const lasted = Date.parse(end) - Date.parse(start);
  const toSeconds = Boolean(gap.enabledAt) && lasted < 60_000;
  const clock = (t: string) => t.slice(11, toSeconds ? 19 : 16);
  const today = day(now.toISOString());
  const withDay = (t: string) => (day(t) === today && day(start) === day(end) ? clock(t) : `${day(t)} ${clock(t)}`);
  if (!gap.enabledAt) return `since ${withDay(start)}`;
  return `${withDay(start)}–${withDay(end)}${toSeconds ? ` (${Math.max(0, Math.round(lasted / 1000))} s)` : ''}`;
}

/** The gap in one sentence: "disabled 05:10–09:42: 37 grants were never sent to it, 12 failed for good". */
export function describeGap(gap: TOutageGap, noun = 'grant', now = new Date()): string {
  const n = (k: number) => plural(k, noun);
  if (!gap.enabledAt)
    return `disabled ${gapSpan(gap, now)}: ${n(gap.missing)} not sent to it so far, ${gap.failed} failed for good — enable it to recover them`;
  if (gap.missing + gap.failed === 0) return `disabled ${gapSpan(gap, now)}: nothing left to recover`;
  return `disabled ${gapSpan(gap, now)}: ${n(gap.missing)} ${gap.missing === 1 ? 'was' : 'were'} never sent to it, ${gap.failed} failed for good`;
}
