import { containmentDocument, hasWords, jsonbCanHold, payloadPathProblem } from '@/lib/db/search-json';

// The two search forms that look inside payloads, told apart from ids, e-mails and names
// (investigation/search-query.ts) by their shape:
//   path.to.field=value   a JSON value at a dotted path: 15000, "15000", fidelity-charitable (a bare
//                         word is a string), true, false, null; compared as JSON (jsonb containment)
//   "free text"           these words in this order among the strings and numbers (any case)
// Anything else with an operator after a path (>, <, !=, ~, :=, …) is refused, not guessed at.

export type TPayloadQuery = { kind: 'payload-field'; path: string; valueJson: string; document: string } | { kind: 'payload-text'; text: string };

export type TPayloadParse = { query: TPayloadQuery } | { problem: string } | null;

// A would-be path (no spaces, @, /, quotes…) and then an operator: the left side is checked strictly after.
const WITH_OPERATOR = /^([A-Za-z0-9_$.[\]-]+)\s*(==|!=|>=|<=|=~|!~|:=|=|>|<|~)\s*([\s\S]*)$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const SUPPORTED_FORMS = 'use path.to.field=value (equality) or "quoted text"';

/** The JSON text of a typed value, or why it cannot be one. */
function valueJson(raw: string): { json: string } | { problem: string } {
  const v = raw.trim();
  if (!v) return { problem: 'value is missing after "="' };
  if (JSON_NUMBER.test(v) || v === 'true' || v === 'false' || v === 'null') return { json: v };
  if (v.startsWith('"') || v.startsWith('{') || v.startsWith('[')) {
    try {
      JSON.parse(v);
      return { json: v };
    } catch {
      return { problem: `value ${v} is malformed: a quoted string must be valid JSON ("…" with \\" inside), an object or array valid JSON` };
    }
  }
  if (v.includes('"')) return { problem: `value ${v} is malformed: quote the whole string ("…")` };
  return { json: JSON.stringify(v) };
}

/** A payload query, the problem with one, or null when `q` is no payload query (an id, e-mail, name…). */
export function parsePayloadQuery(raw: string): TPayloadParse {
  const q = raw.trim();
  if (q.startsWith('"')) {
    if (q.length < 2 || !q.endsWith('"')) return { problem: 'quoted text has no closing quote' };
    const text = q.slice(1, -1).trim().replace(/\s+/gu, ' ');
    if (!hasWords(text)) return { problem: 'quoted text must contain a letter or a digit' };
    return { query: { kind: 'payload-text', text } };
  }
  const m = WITH_OPERATOR.exec(q);
  if (!m) return null;
  const [, path, op, rest] = m;
  if (op !== '=') return { problem: `operator "${op}" is not supported: ${SUPPORTED_FORMS}` };
  const pathProblem = payloadPathProblem(path);
  if (pathProblem) return { problem: pathProblem };
  const value = valueJson(rest);
  if ('problem' in value) return value;
  if (!jsonbCanHold(value.json)) return { problem: `value ${rest.trim()} cannot be searched: no \\u0000 or escaped surrogates, no number past ±1e9999` };
  return { query: { kind: 'payload-field', path, valueJson: value.json, document: containmentDocument(path, value.json) } };
}
