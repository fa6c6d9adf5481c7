import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks `v1` signatures — base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the
// secret's base64-decoded key — computed with node:crypto. The standardwebhooks package computes
// the same in JavaScript (fast-sha256): about an eighth of the receiver's CPU, and a cost on every
// delivery. The package still decides which secrets are usable, and the tests check that both
// sign alike.

const MAX_CACHED_KEYS = 10_000;
const keys = new Map<string, Buffer | null>();

/** The HMAC key of a `whsec_…` secret, or null when the package would refuse the secret. */
export function signingKey(secret: string): Buffer | null {
  let key = keys.get(secret);
  if (key === undefined) {
    try {
      new Webhook(secret);
      key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    } catch {
      key = null;
    }
    if (keys.size >= MAX_CACHED_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/**
 * The base64 signature (without `v1,`). A body that is not valid UTF-8 is signed as the package
 * signs it: decoded to a string first, its bad bytes replaced.
 */
export function signV1(key: Buffer, id: string, timestampSeconds: number, body: string | Buffer): string {
  const content = typeof body === 'string' || isUtf8(body) ? body : body.toString('utf8');
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(content).digest('base64');
}

/** Whether one `v1,…` entry of a space-separated signature header is `expected` (compared in constant time). */
export function headerHasSignature(header: string, expected: string): boolean {
  const want = Buffer.from(expected);
  return header.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig);
    return given.length === want.length && timingSafeEqual(given, want);
  });
}

/** The `webhook-signature` header: one `v1,…` per active secret, space-separated. */
export function signatureHeader(secrets: string[], messageId: string, at: Date, body: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return secrets
    .map((secret) => {
      const key = signingKey(secret);
      if (!key) throw new Error('a webhook secret is not valid base64');
      return `v1,${signV1(key, messageId, seconds, body)}`;
    })
    .join(' ');
}
