import { plural } from '@/lib/console/format';

// A webhook about to be disabled, in plain words (the health home, the webhook page, problems and
// the "about to be disabled" alert rule): the service's EXT `failingSince` / `disablesAt` on the
// Webhook, and how many messages wait. Plain values only: client components show it too.

export type TFailingFields = { disabled: boolean; failingSince: string | null; disablesAt: string | null; eventTypes?: string[] };

export type TDisableWarning = {
  failingSince: string;
  disablesAt: string;
  /** How much of the stretch allowed before disabling has passed, 0–100 (100: the next failure disables it). */
  percent: number;
  sentence: string;
};

/** "3 h 12 min", "2 d 4 h", "45 s": the two largest units. */
export function spanWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, unit] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 || (parts.length === 0 && size === 1)) parts.push(`${n} ${unit}`);
    rest -= n * size;
    if (parts.length === 2) break;
    if (parts.length === 1 && n > 0 && size === 1) break;
  }
  return parts.join(' ');
}

/** "about 20 h", "about 3 d", "about 12 min", "under a minute": the one largest unit, rounded. */
export function aboutWords(ms: number): string {
  if (ms < 60_000) return 'under a minute';
  if (ms < 3600_000) return `about ${Math.round(ms / 60_000)} min`;
  if (ms < 2 * 86_400_000) return `about ${Math.round(ms / 3600_000)} h`;
  return `about ${Math.round(ms / 86_400_000)} d`;
}

const noun = (eventTypes: string[] | undefined, n: number) => {
  const word = eventTypes && eventTypes.length > 0 && eventTypes.every((t) => t.startsWith('grant.')) ? 'grant' : 'message';
  return plural(n, word);
};

/**
 * The warning for an enabled webhook in a failing stretch, or null (not failing, disabled, or a
 * service that does not say): "failing for 3 h 12 min — will be disabled in about 20 h unless a
 * delivery succeeds; 41 grants waiting".
 */
export function disableWarning(w: TFailingFields, waiting: number | null, now = Date.now()): TDisableWarning | null {
  if (w.disabled || !w.failingSince || !w.disablesAt) return null;
  const since = Date.parse(w.failingSince);
  const at = Date.parse(w.disablesAt);
  if (!(at > since)) return null;
  const percent = Math.min(100, Math.max(0, Math.floor(((now - since) / (at - since)) * 100)));
  const left = at - now;
  const when =
    left > 0
      ? `will be disabled in ${aboutWords(left)} unless a delivery succeeds`
      : 'will be disabled any moment now (its time has come) unless a delivery succeeds';
  const queue = waiting === null ? '' : `; ${noun(w.eventTypes, waiting)} waiting`;
  return { failingSince: w.failingSince, disablesAt: w.disablesAt, percent, sentence: `failing for ${spanWords(now - since)} — ${when}${queue}` };
}
