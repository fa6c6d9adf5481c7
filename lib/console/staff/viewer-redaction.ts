import { donorTagPrefix } from '@/lib/donor-name';
import { secretFingerprint } from '../secret-fingerprint';

// What a viewer is sent: never a secret (its fingerprint instead, lib/console/secret-fingerprint.ts)
// and donor details masked (`a•••@example.org`, `A•••`). Applied in one place for JSON
// (withStaff) and to the data a page hands its components (viewerView). Pure, so unit-tested.

const MASK = '•••';
const DONOR_FIELDS = new Set(['firstName', 'lastName', 'email', 'phone', 'note', 'donorName', 'donorEmail', 'name_on_card']);
const SECRET_PATTERNS: RegExp[] = [/\bwhsec_[A-Za-z0-9+/=]+/g, /\bsk_(?:test|live)_[A-Za-z0-9]+/g, /\bgc_(?:test|live)_[A-Za-z0-9]+/g];
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi;
const EMAIL = /([^\s@"'<>(),;:\\]+)@([^\s@"'<>(),;:\\]+\.[A-Za-z]{2,})/g;
// A donor field written inside a JSON text (a stored request body): `"firstName": "Ada"`.
const JSON_DONOR_FIELD = /("(?:firstName|lastName|phone|note)"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;
// A key holding a secret (`secret`, `secrets`, `receiverSecrets`, `apiKey`, `clientSecret`), not its fingerprint.
const SECRET_KEY = /^(?:secrets?|\w*Secrets?|apiKey|password)$/;

const STAFF_KEYS = new Set(['actor', 'staffEmail', 'createdBy', 'revokedBy', 'acknowledgedBy']);

/** `ada@example.org` → `a•••@example.org`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return MASK;
  return `${email[0]}${MASK}${email.slice(at)}`;
}

/** A name, phone or note: its first letter of a name, nothing of the rest. */
export function maskText(value: string): string {
  if (value.includes('@')) return maskEmail(value);
  return /^[\p{L}]/u.test(value) ? `${value[0]}${MASK}` : MASK;
}

/** The stand-in for a secret: its fingerprint, which is enough to compare two. */
export function secretStandIn(secret: string): string {
  if (/^\[secret [0-9a-f]{8}…\]$/.test(secret)) return secret; // already one (an operator's copy, masked again for a viewer)
  return `[secret ${secretFingerprint(secret)}…]`;
}

/** `text` with every secret key or bearer token replaced by its fingerprint and every e-mail address masked. */
export function redactTextForViewer(text: string): string {
  let out = SECRET_PATTERNS.reduce((acc, p) => acc.replace(p, (m) => secretStandIn(m)), text);
  out = out.replace(BEARER, (m) => `Bearer ${secretStandIn(m.slice(7).trim())}`);
  out = out.replace(EMAIL, (m) => maskEmail(m));
  return out.replace(JSON_DONOR_FIELD, (_m, open: string, value: string, close: string) => `${open}${value ? maskText(value) : ''}${close}`);
}

/** Stored bytes (a request body): masked as UTF-8 text when that changes anything, else the same bytes. */
function redactBytes(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const masked = redactTextForViewer(text);
  return masked === text ? bytes : new TextEncoder().encode(masked);
}

/** A deep copy of `value` as a viewer may see it. */
export function redactForViewer(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (value !== '' && SECRET_KEY.test(key)) return secretStandIn(value);
    if (value !== '' && DONOR_FIELDS.has(key)) return maskText(value);
    if (STAFF_KEYS.has(key)) return value; // a staff member's own address is no donor detail
    const donorTag = donorTagPrefix(value);
    if (donorTag) return `${donorTag}${MASK}`;
    // Bytes sent as base64 (a forward's reply body, `responseBodyBase64`): masked as a stored body is.
    if (key.endsWith('Base64') && value !== '') {
      const bytes = Buffer.from(value, 'base64');
      const masked = redactBytes(bytes);
      return masked === bytes ? value : Buffer.from(masked).toString('base64');
    }
    return redactTextForViewer(value);
  }
  if (Array.isArray(value)) return value.map((v) => redactForViewer(v, SECRET_KEY.test(key) ? 'secret' : ''));
  if (value && typeof value === 'object') {
    if (value instanceof Date) return value;
    if (value instanceof Uint8Array) return redactBytes(value);
    if (ArrayBuffer.isView(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactForViewer(v, k);
    // A stored body sent as base64 beside its text (receiver-json.ts): the base64 of the masked text.
    if (typeof out.body === 'string' && typeof out.bodyText === 'string' && out.bodyText !== (value as { bodyText: string }).bodyText) {
      out.body = Buffer.from(out.bodyText).toString('base64');
    }
    return out;
  }
  return value;
}

/** `data` as a staff member of `role` may see it: masked for a viewer, as it is for the others. */
export function asSeenBy<T>(role: string, data: T): T {
  return role === 'viewer' ? (redactForViewer(data) as T) : data;
}
