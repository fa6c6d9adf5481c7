import { createHmac } from 'node:crypto';
import { safeEqual } from '@/lib/crypto/secrets';
import type { TConnectRow } from '@/lib/service/connects/connect-json';

// The confirmation page shows a gift (donor name, amount) only in the browser that made it. The
// give route sets a cookie scoped to /connect/{cid} (httpOnly, SameSite=Lax, 1 h) holding, per
// tracking id, when it was given and an HMAC over both keyed by the Connect's API key: a secret
// the donor never sees, known besides the server only to the nonprofit, who can list its grants
// anyway. Anyone else holding the link gets a neutral thank-you.

export const THANKS_COOKIE = 'gc_thanks';
export const THANKS_MAX_AGE_S = 3600;
/** The gifts one browser can revisit per Connect; older ones drop off. */
const MAX_ENTRIES = 10;
const ENTRY = /^(GC-[A-Z0-9]{6})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

type TThanksConnect = Pick<TConnectRow, 'id' | 'apiKey'>;
type TEntry = { trackingId: string; issuedAt: number; mac: string };

function macOf(connect: TThanksConnect, trackingId: string, issuedAt: number): string {
  return createHmac('sha256', connect.apiKey).update(`connect-thanks:${connect.id}:${trackingId}:${issuedAt}`).digest('base64url');
}

function entriesOf(value: string | undefined): TEntry[] {
  return (value ?? '').split('~').flatMap((part) => {
    const m = ENTRY.exec(part);
    return m ? [{ trackingId: m[1], issuedAt: Number(m[2]), mac: m[3] }] : [];
  });
}

const fresh = (entry: TEntry, nowS: number) => entry.issuedAt <= nowS + 60 && nowS - entry.issuedAt < THANKS_MAX_AGE_S;

/** The cookie value after a gift in this browser: its tracking id added to the fresh ones. */
export function withThanksEntry(value: string | undefined, connect: TThanksConnect, trackingId: string, now = Date.now()): string {
  const nowS = Math.floor(now / 1000);
  const kept = entriesOf(value)
    .filter((e) => e.trackingId !== trackingId && fresh(e, nowS))
    .slice(-(MAX_ENTRIES - 1));
  return [...kept, { trackingId, issuedAt: nowS, mac: macOf(connect, trackingId, nowS) }].map((e) => `${e.trackingId}.${e.issuedAt}.${e.mac}`).join('~');
}

/** Whether the cookie shows that this browser made the gift `trackingId` within the hour. */
export function mayShowThanks(value: string | undefined, connect: TThanksConnect, trackingId: string, now = Date.now()): boolean {
  const nowS = Math.floor(now / 1000);
  return entriesOf(value).some((e) => e.trackingId === trackingId && fresh(e, nowS) && safeEqual(e.mac, macOf(connect, trackingId, e.issuedAt)));
}
