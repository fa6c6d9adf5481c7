// A request or response body as the body viewer reads it (pure, so unit-tested): parsed as JSON when
// it is JSON — numbers too long for a double kept as written — else raw text; a value's path as a
// support engineer types it (`data.amount`, `items[0].id`, `metadata["order-id"]`).

/** A number whose text a double would change (`12345678901234567890`, `1.10`): shown as written. */
export class RawNumber {
  constructor(readonly source: string) {}
  toString(): string {
    return this.source;
  }
}

export type TJson = null | boolean | number | string | RawNumber | TJson[] | { [key: string]: TJson };
export type TParsed = { json: true; value: TJson } | { json: false };
export type TSegment = string | number;

type TReviverContext = { source?: string };

/** `text` as JSON, or `{ json: false }`. Where the engine tells a number's source (Chromium, Node 22), it is kept. */
export function parseBody(text: string): TParsed {
  if (text.trim() === '') return { json: false };
  try {
    const value = JSON.parse(text, function (this: unknown, _key: string, v: unknown, ctx?: TReviverContext) {
      if (typeof v === 'number' && ctx?.source !== undefined && ctx.source !== String(v)) return new RawNumber(ctx.source);
      return v;
    } as (this: unknown, key: string, value: unknown) => unknown) as TJson;
    return { json: true, value };
  } catch {
    return { json: false };
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The path to a value: `data.amount`, `[0].id`, `metadata["order-id"]`; '' for the whole body. */
export function pathString(segments: TSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

export const isRecord = (v: unknown): v is { [key: string]: TJson } => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);

/** A value as one line of JSON (a difference's "was"/"now"), cut to `max` characters. */
export function shortJson(v: TJson | undefined, max = 80): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v, (_k, x) => (x instanceof RawNumber ? Number(x.source) : x)) ?? String(v);
  const s = v instanceof RawNumber ? v.source : text;
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Pretty JSON (two spaces), numbers as written: what "Copy body" copies when the view is formatted. */
export function prettyJson(v: TJson, indent = ''): string {
  const inner = `${indent}  `;
  if (v instanceof RawNumber) return v.source;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + prettyJson(x, inner)).join(',\n')}\n${indent}]` : '[]';
  if (isRecord(v)) {
    const keys = Object.keys(v);
    return keys.length ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${prettyJson(v[k], inner)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(v);
}
