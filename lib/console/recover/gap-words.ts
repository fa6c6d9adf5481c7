import { plural } from '@/lib/format';

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

/** "05:10–09:42" (UTC; with the day when it is not today's, or the two differ). */
export function gapSpan(gap: Pick<TOutageGap, 'disabledAt' | 'enabledAt'>, now = new Date()): string {
  const day = (iso: string) => iso.slice(0, 10);
  const hm = (iso: string) => iso.slice(11, 16);
  const end = gap.enabledAt ?? now.toISOString();
  const today = day(now.toISOString());
  const withDay = (iso: string) => (day(iso) === today && day(gap.disabledAt) === day(end) ? hm(iso) : `${day(iso)} ${hm(iso)}`);
  return gap.enabledAt ? `${withDay(gap.disabledAt)}–${withDay(end)}` : `since ${withDay(gap.disabledAt)}`;
}

/** The gap in one sentence: "disabled 05:10–09:42: 37 grants were never sent to it, 12 failed for good". */
export function describeGap(gap: TOutageGap, noun = 'grant', now = new Date()): string {
  const n = (k: number) => plural(k, noun);
  if (!gap.enabledAt) return `disabled ${gapSpan(gap, now)}: ${n(gap.missing)} not sent to it so far, ${gap.failed} failed for good — enable it to recover them`;
  if (gap.missing + gap.failed === 0) return `disabled ${gapSpan(gap, now)}: nothing left to recover`;
  return `disabled ${gapSpan(gap, now)}: ${n(gap.missing)} ${gap.missing === 1 ? 'was' : 'were'} never sent to it, ${gap.failed} failed for good`;
}
