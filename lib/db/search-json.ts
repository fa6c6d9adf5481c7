// Payload search reads a jsonb copy of each receipt's body and each message's payload, made at
// insert (both halves already hold the text there) and searched through GIN indexes (schema/columns.ts
// searchJsonIndexes). This is the shared part: which text becomes jsonb, what a query may hold, and
// the excerpt of a hit. Rows stored before the column existed are parsed in the background
// (lib/console/search/backfill-body-json.ts, lib/service/messages/backfill-payload-json.ts).

/** Past this, a body is not searched: its words could pass the 1 MB a tsvector may hold. */
export const SEARCH_JSON_MAX_BYTES = 256 * 1024;

/** The jsonb of a row that cannot be searched (not JSON, too large, purged): never matches a query. */
export const UNSEARCHABLE = 'null';

// What JSON allows and jsonb refuses: the escapes of NUL and of UTF-16 surrogates (a pair is
// refused too when escaped; such bodies are rare enough to skip rather than re-encode), and numbers
// past numeric's range (an exponent of 5 digits or more, 1000 digits or more), looked for outside
// strings only (a UUID's "3e41234" is no number). Nesting deeper than MAX_DEPTH could exhaust the
// server's stack.
const JSONB_REFUSES = /\\u(?:0000|[dD][89a-fA-F])/;
const HUGE_NUMBER = /\d[eE][+-]?\d{5,}|\d{1000,}/;
const STRING = /"(?:[^"\\]|\\.)*"/g;
const MAX_DEPTH = 100;

/** Whether JSON `text` nests objects and arrays at most `max` deep (brackets inside strings not counted). */
function nestsWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return false;
    } else if (c === 125 || c === 93) depth--;
  }
  return true;
}

/** Whether valid JSON `text` may be cast to jsonb and searched (size, what jsonb refuses, depth). */
export function jsonbCanHold(text: string): boolean {
  return text.length <= SEARCH_JSON_MAX_BYTES && !JSONB_REFUSES.test(text) && !HUGE_NUMBER.test(text.replace(STRING, '""')) && nestsWithin(text, MAX_DEPTH);
}

/**
 * The text to store as the row's jsonb (cast by the INSERT): `text` itself when it is a JSON object
 * or array PostgreSQL can hold, otherwise UNSEARCHABLE. Never throws: a batch INSERT must not fail
 * on one body (record-receipt.ts stores many in one statement).
 */
export function searchableJson(text: string | null): string {
  if (text === null || !jsonbCanHold(text)) return UNSEARCHABLE;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return UNSEARCHABLE;
  try {
    JSON.parse(text);
    return text;
  } catch {
    return UNSEARCHABLE;
  }
}

/* ------------------------------------------------------------------ what a query and a hit are */

/** One key of a payload path (`data.fund.id` → data, fund, id): letters, digits, `_`, `-`, `$`. */
export const PATH_SEGMENT = /^[A-Za-z0-9_$-]{1,100}$/;
export const PATH_MAX_SEGMENTS = 12;

/** Why a dotted payload path cannot be searched, or null. */
export function payloadPathProblem(path: string): string | null {
  const segments = path.split('.');
  if (segments.some((s) => s === '')) return `path "${path}" is malformed: an empty key (two dots, or a dot at an end)`;
  if (segments.length > PATH_MAX_SEGMENTS) return `path "${path}" is too deep: at most ${PATH_MAX_SEGMENTS} keys`;
  const bad = segments.find((s) => !PATH_SEGMENT.test(s));
  if (bad !== undefined) return `path "${path}" is malformed: key "${bad}" may hold only letters, digits, _, - and $ (array indexes are not supported)`;
  return null;
}

/** The jsonb containment document (`@>`) of `path` = the JSON value `valueJson`: {"data":{"amount":15000}}. */
export function containmentDocument(path: string, valueJson: string): string {
  return path
    .split('.')
    .reverse()
    .reduce((inner, key) => `{${JSON.stringify(key)}:${inner}}`, valueJson);
}

/**
 * A quoted phrase among a row's stored words (`words`, the tsvector of its jsonb `json`): the words
 * in order within one value (jsonb_to_tsvector keeps values apart, so a phrase never runs from one
 * value into the next), or — for a grant's payload — across the donor's first and last name, read as
 * the one value a person reads them as ("grace hopper" is data.firstName then data.lastName). The
 * words must all be in the row (`plainto_tsquery`, served by the GIN index) before the name is looked
 * at. `param` is the phrase's placeholder ($4). Both halves use it: receipts and messages.
 */
export function phraseMatchSql(words: string, json: string, param: string): string {
  const name = `to_tsvector('simple', concat_ws(' ', ${json}#>>'{data,firstName}', ${json}#>>'{data,lastName}'))`;
  return `(${words} @@ phraseto_tsquery('simple', ${param}) or (${words} @@ plainto_tsquery('simple', ${param}) and ${name} @@ phraseto_tsquery('simple', ${param})))`;
}

/** The text PostgreSQL's `simple` parser would make words of: what a "free text" search matches. */
export const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** Where JSON `text` may be cut without cutting a string: after each `,`, `{`, `[` and before each `,`, `}`, `]` outside strings. */
function cutPoints(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === '{' || c === '[') starts.push(c === ',' && text[i + 1] === ' ' ? i + 2 : i + 1);
    if (!inString && (c === ',' || c === '}' || c === ']')) ends.push(c === ',' ? i : i + 1);
  }
  return { starts, ends };
}

/**
 * A short piece of JSON `text` (a payload as jsonb prints it) around the first place `needle`
 * occurs, case-insensitively, with … where it was cut; the start when the needle is not found as
 * such. Cut between members, never inside a string when it can be helped, so that a viewer's
 * masking (which knows `"firstName": "…"`) sees whole values.
 */
export function excerptAround(text: string, needle: string, width = 160): string {
  if (text.length <= width) return text;
  const at = needle ? text.toLowerCase().indexOf(needle.toLowerCase()) : -1;
  let start = at < 0 ? 0 : Math.max(0, at - Math.floor((width - needle.length) / 2));
  let end = Math.min(text.length, start + width);
  const { starts, ends } = cutPoints(text);
  const s = start === 0 ? 0 : [...starts].reverse().find((p) => p <= start && (at < 0 || p <= at));
  const e = end === text.length ? end : ends.find((p) => p >= end);
  // A member longer than the width: cut inside it rather than show the whole of it.
  if (s !== undefined && e !== undefined && e - s <= width * 2) [start, end] = [s, e];
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
