import { donorNameTag } from '@/lib/donor-name';
import type { TQueryKind } from './case-types';

// What a pasted search term is, by its shape: the ids of the API, the donor's e-mail, and two or
// more words of letters, the donor's full name ("Grace Hopper", "José de la Cruz", "Mary-Kate O’Neil").

const PATTERNS: [TQueryKind, RegExp][] = [
  ['message-id', /^msg_[0-9A-Za-z]{27}$/],
  ['event-id', /^evt_[0-9A-Za-z]{27}$/],
  ['webhook-id', /^ep_[0-9A-Za-z]{27}$/],
  ['grant-id', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['tracking-id', /^GC-[0-9A-Z]{6}$/i],
  ['email', /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/],
  ['donor-name', /^\p{L}[\p{L}\p{M}'’.-]*(?:\s+\p{L}[\p{L}\p{M}'’.-]*)+$/u],
];

export const QUERY_MAX_LENGTH = 254;

/** The kind and the canonical spelling (tracking ids upper-cased, e-mails and UUIDs lower-cased). */
export function classifyQuery(raw: string): { kind: TQueryKind; q: string } {
  const q = raw.trim().slice(0, QUERY_MAX_LENGTH);
  for (const [kind, pattern] of PATTERNS) {
    if (!pattern.test(q)) continue;
    if (kind === 'tracking-id') return { kind, q: q.toUpperCase() };
    if (kind === 'email' || kind === 'grant-id') return { kind, q: q.toLowerCase() };
    if (kind === 'donor-name') return { kind, q: q.replace(/\s+/gu, ' ') };
    return { kind, q };
  }
  return { kind: 'unknown', q };
}

/** The message tag the service puts on a grant's messages for this kind of term (EXT), or null. */
export function tagFor(kind: TQueryKind, q: string): string | null {
  switch (kind) {
    case 'grant-id':
      return `grant:${q}`;
    case 'tracking-id':
      return `tracking:${q}`;
    case 'email':
      return `donor:${q}`;
    case 'donor-name':
      return donorNameTag(q);
    default:
      return null;
  }
}

/** Why a search term cannot be searched (empty, too long, control characters, broken Unicode), or null. */
export function searchTermProblem(q: string): string | null {
  if (!q) return 'is required: a tracking id, grant id, message id, event id, webhook id, donor e-mail, donor full name, path.to.field=value or "quoted text"';
  if (q.length > QUERY_MAX_LENGTH) return `must be at most ${QUERY_MAX_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(q))
    return 'must be printable text (no control characters or broken Unicode)';
  return null;
}
