import { donorTagPrefix } from '@/lib/donor-name';

// What an export leaves out. Secrets never leave: any whsec_/sk_ key or bearer token in a string is
// replaced, whatever field carries it. Donor details (a grant's name, e-mail, phone, note; a
// `donor:` tag) leave only when the staff member ticked "include donor details".

export const REDACTED = '[redacted]';
const DONOR_FIELDS = new Set(['firstName', 'lastName', 'email', 'phone', 'note']);
const SECRET_PATTERNS: RegExp[] = [/\bwhsec_[A-Za-z0-9+/=]+/g, /\bsk_(?:test|live)_[A-Za-z0-9]+/g, /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi];
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;

/** `text` with every secret key or token in it replaced. */
export function scrubSecrets(text: string): string {
  // Most strings of an export (ids, times, statuses) hold none: one scan says so before three regexes run.
  if (!MAYBE_SECRET.test(text)) return text;
  return SECRET_PATTERNS.reduce((out, p) => out.replace(p, REDACTED), text);
}
const MAYBE_SECRET = /whsec_|sk_(?:test|live)_|bearer/i;

/** `text` with secrets and, unless donor details are included, e-mail addresses replaced. */
export function scrubText(text: string, includeDonor: boolean): string {
  const out = scrubSecrets(text);
  return includeDonor || !out.includes('@') ? out : out.replace(EMAIL, REDACTED);
}

/** A deep copy of `value` with secrets scrubbed from every string and, unless included, donor fields replaced. */
export function redactValue(value: unknown, includeDonor: boolean): unknown {
  if (typeof value === 'string') return scrubText(value, includeDonor);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, includeDonor));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // What a view says where a body was ({kind, at, sha256, note}: body-gone.ts) names no donor: its `note` is no grant's note.
      if (k.endsWith('Gone')) out[k] = redactValue(v, true);
      else out[k] = !includeDonor && DONOR_FIELDS.has(k) && v !== null && v !== '' ? REDACTED : redactValue(v, includeDonor);
    }
    return out;
  }
  return value;
}

/**
 * `JSON.stringify(redactValue(value, includeDonor))` without the copy: the redaction is done by
 * stringify's replacer as it walks the value (an export's hot path: one call per line).
 */
export function redactedJson(value: unknown, includeDonor: boolean): string {
  // Objects under a `…Gone` key (and all below them) are redacted as if donor details were included.
  // (Most lines have none: the set is asked only once something is in it.)
  const gone = new WeakSet<object>();
  let anyGone = false;
  return JSON.stringify(value, function (this: object, key: string, v: unknown) {
    const asDonor = includeDonor || key.endsWith('Gone') || (anyGone && gone.has(this));
    if (!asDonor && v !== null && v !== '' && v !== undefined && DONOR_FIELDS.has(key)) return REDACTED;
    if (v && typeof v === 'object') {
      if (asDonor && !includeDonor) {
        gone.add(v);
        anyGone = true;
      }
      return v;
    }
    return typeof v === 'string' ? scrubText(v, asDonor) : v;
  });
}

/** A message's tags with those naming a donor (`donor:`, `name:`) redacted unless included. */
export function redactTags(tags: string[] | undefined, includeDonor: boolean): string[] {
  return (tags ?? []).map((t) => {
    const donor = includeDonor ? null : donorTagPrefix(t);
    return donor ? `${donor}${REDACTED}` : scrubSecrets(t);
  });
}

/** Replaces, in place, the value of every donor field outside a `…Gone` object (what redactedJson replaces by key). */
function maskDonorFields(value: unknown): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) maskDonorFields(v);
    return;
  }
  const o = value as Record<string, unknown>;
  for (const k in o) {
    const v = o[k];
    if (DONOR_FIELDS.has(k)) {
      if (v !== null && v !== '' && v !== undefined) o[k] = REDACTED;
    } else if (v && typeof v === 'object' && !k.endsWith('Gone')) maskDonorFields(v);
  }
}

/**
 * What redactedJson writes, for a value made for this one call (an export's line: nothing else
 * holds it, so it may be changed). The donor fields are replaced in place and the value is
 * stringified without a replacer, on JSON.stringify's fast path (a replacer is called for every
 * key and value: ~12 % of an export's CPU). Only strings could still need scrubbing, and only when
 * the text holds an `@` (an e-mail address, donor details left out) or what may be a secret; that
 * line is written again by redactedJson. Most lines hold neither.
 */
export function redactedJsonOf(owned: unknown, includeDonor: boolean): string {
  if (!includeDonor) maskDonorFields(owned);
  const text = JSON.stringify(owned);
  return (!includeDonor && text.includes('@')) || MAYBE_SECRET.test(text) ? redactedJson(owned, includeDonor) : text;
}
