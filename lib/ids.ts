import { randomBytes } from 'node:crypto';
import KSUID from 'ksuid';

// Time-sortable identifiers: a prefix and a 27-character base62 KSUID.
export function ksuid(): string {
  return KSUID.randomSync().string;
}

export function prefixedId(prefix: string): string {
  return `${prefix}${ksuid()}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

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
