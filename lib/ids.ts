import { randomBytes } from 'node:crypto';
import KSUID from 'ksuid';

// Time-sortable identifiers: a prefix and a 27-character base62 KSUID.
export function ksuid(): string {
  return KSUID.randomSync().string;
}

export function prefixedId(prefix: string): string {
  return `${prefix}${ksuid()}`;
}

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniformly random characters from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out.push(alphabet[byte % alphabet.length]);
      if (out.length === length) break;
    }
  }
  return out.join('');
}

// A `<prefix>_<KSUID>` id says when it was made: its KSUID's first 4 bytes are the second, by the maker's clock. The
// partitioned tables' lookups by such an id bound their time with it (console.receipts: a message's receipts; the
// service's messages, deliveries and attempts), so they plan the partitions of that time rather than every one.
//
// The slack: an hour either way, as the day's reconciliation allows (reconcile-day.ts). It covers another clock against
// ours (a service whose clock runs ahead makes ids later than our now), and the time from an id's making to its row's
// insert. An id that is no KSUID, or names a second before FIRST_ID_AT or after now plus the slack (a row written by
// hand: tests, the bench's `msg_Scale000…42`), bounds nothing: it is looked up unbounded.

export const ID_CLOCK_SLACK_MS = 3_600_000;
/** The slack as SQL, an interval to add to or take from a time. */
export const ID_CLOCK_SLACK_SQL = `interval '${ID_CLOCK_SLACK_MS} milliseconds'`;
/** No id of this app was made before this (the project began in November 2026). */
export const FIRST_ID_AT = Date.UTC(2026, 0, 1);
export const KSUID_EPOCH_S = 1_400_000_000;

/** The second a `<prefix>_<KSUID>` id was made (its KSUID's timestamp), or null when what follows the prefix is no KSUID. */
export function idSecond(id: string): Date | null {
  const k = id.slice(id.indexOf('_') + 1);
  if (!/^[0-9A-Za-z]{27}$/.test(k)) return null;
  let n = 0n;
  for (const c of k) n = n * 62n + BigInt(BASE62.indexOf(c));
  if (n >> 160n) return null; // past the largest KSUID
  return new Date((Number(n >> 128n) + KSUID_EPOCH_S) * 1000);
}

/** The window a row made with this id was written in (its second, give or take the slack), or null when the id does not say. */
export function idWindow(id: string, now = Date.now()): { from: Date; to: Date } | null {
  const at = idSecond(id)?.getTime();
  if (at === undefined || at < FIRST_ID_AT || at > now + ID_CLOCK_SLACK_MS) return null;
  return { from: new Date(at - ID_CLOCK_SLACK_MS), to: new Date(at + 1000 + ID_CLOCK_SLACK_MS) };
}

/** The earliest any of these ids' windows begins (what followed them, e.g. a message's receipts, came after); null when one does not say. */
export function idsSince(ids: readonly string[], now = Date.now()): Date | null {
  let from = Infinity;
  for (const id of ids) {
    const w = idWindow(id, now);
    if (!w) return null;
    from = Math.min(from, w.from.getTime());
  }
  return Number.isFinite(from) ? new Date(from) : null;
}
