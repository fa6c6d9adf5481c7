import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

// The service's page tokens: `<payload>.<mac>`, both base64url. The payload names the last row seen
// (createdAt, id) and the list it came from (a hash of its scope, e.g. `messages:<webhookId>`), so
// one list's token is refused by another instead of paging it from a foreign position. The MAC
// (HMAC-SHA256, 16 bytes) makes a token this service did not issue a 400 before any query runs.
// Pure: the key is passed in (lib/http/paging.ts derives it from the signing key).

export type TCursor = { t: string; id: string };

const ZCursor = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(200), s: z.string().min(1).max(100) });

function scopeTag(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 16);
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16);
}

export function sealCursor(key: Buffer, createdAt: Date, id: string, scope: string): string {
  const payload = Buffer.from(JSON.stringify({ t: createdAt.toISOString(), id, s: scopeTag(scope) })).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The cursor of a token sealed with `key` for `scope`; `'foreign'` when sealed for another list; null when not sealed with `key`. */
export function openCursor(key: Buffer, token: string, scope: string): TCursor | 'foreign' | null {
  const match = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = ZCursor.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    if (parsed.data.s !== scopeTag(scope)) return 'foreign';
    return { t: parsed.data.t, id: parsed.data.id };
  } catch {
    return null;
  }
}
