import type { TRecoverRun } from '@/lib/console/connect-api/types';
import { formatUtcClock } from '@/lib/console/format';
import { gapSpan } from './gap-words';

// The outage's story of one delivery in words (delivery-story.ts reads the facts): pure.

export type TStoryDelivery = { status: string; attemptCount: number; recoverRunId?: string | null } | null;
export type TOutage = { disabledAt: string; enabledAt: string | null };
export type TWho = { actor: string } | null;

const utc = (iso: string, now: Date) => `${formatUtcClock(iso, now)} UTC`;

/** The sentence, from what was read (pure). */
export function storySentence({
  outage,
  run,
  who,
  delivery,
  now,
}: {
  outage: TOutage | null;
  run: TRecoverRun | null;
  who: TWho;
  delivery: TStoryDelivery;
  now: Date;
}): string | null {
  const parts: string[] = [];
  if (outage) parts.push(`made while the webhook was disabled (${gapSpan(outage, now)} UTC)`);
  if (run) {
    const how = run.kind === 'replay-missing' ? 'replayed' : 're-sent after it failed';
    const by = who ? `by Recover all (${who.actor})` : run.clientId ? `by ${run.kind} (API client ${run.clientId})` : `by a ${run.kind} run`;
    parts.push(`${how} ${by} at ${utc(run.createdAt, now)}`);
  } else if (outage && !delivery) {
    parts.push(outage.enabledAt ? 'never sent to it: "Recover all" on the webhook’s page replays it' : 'not sent to it while it stays disabled');
  }
  return parts.length ? parts.join('; ') : null;
}
