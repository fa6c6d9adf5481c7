import { createHash } from 'node:crypto';

// A secret's short fingerprint: the first 8 hex digits of its SHA-256. Lets support compare the
// webhook's secret with a receiver's side by side without showing either.

export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret.trim()).digest('hex').slice(0, 8);
}
