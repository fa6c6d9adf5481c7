import { isRecord, parseBody, pathString, RawNumber, type TJson, type TSegment } from './json-body';

// Sent vs received: the payload as the service sent it beside the bytes a receiver stored. Byte for
// byte the same; the same JSON in other bytes (spacing, key order, escapes); or the values that
// differ, each by its path; or, when either side is not JSON, where the text first differs.

export type TDiffKind = 'changed' | 'added' | 'removed';
export type TDiff = { path: string; kind: TDiffKind; sent?: TJson; received?: TJson };
export type TComparison =
  | { verdict: 'identical' }
  | { verdict: 'same-json' }
  | { verdict: 'different'; diffs: TDiff[]; more: number }
  | { verdict: 'different-text'; offset: number; line: number; column: number };

/** At most this many differences are listed (a body replaced wholesale would list every field). */
export const MAX_DIFFS = 200;

/** A number kept as written compares by its text (`1.0` is not `1` to a receiver comparing bytes). */
const same = (a: TJson, b: TJson) => (a instanceof RawNumber || b instanceof RawNumber ? String(a) === String(b) : Object.is(a, b));

function kindOf(v: TJson): 'array' | 'object' | 'scalar' {
  return Array.isArray(v) ? 'array' : isRecord(v) ? 'object' : 'scalar';
}

/** Every difference between two JSON values, by path, in the sent value's order then the received's extras. */
export function diffJson(sent: TJson, received: TJson): { diffs: TDiff[]; more: number } {
  const diffs: TDiff[] = [];
  let more = 0;
  const push = (d: TDiff) => (diffs.length < MAX_DIFFS ? diffs.push(d) : more++);
  const walk = (a: TJson, b: TJson, at: TSegment[]) => {
    const [ka, kb] = [kindOf(a), kindOf(b)];
    if (ka !== kb) return push({ path: pathString(at), kind: 'changed', sent: a, received: b });
    if (ka === 'array') {
      const [xa, xb] = [a as TJson[], b as TJson[]];
      for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
        if (i >= xb.length) push({ path: pathString([...at, i]), kind: 'removed', sent: xa[i] });
        else if (i >= xa.length) push({ path: pathString([...at, i]), kind: 'added', received: xb[i] });
        else walk(xa[i], xb[i], [...at, i]);
      }
      return;
    }
    if (ka === 'object') {
      const [oa, ob] = [a as Record<string, TJson>, b as Record<string, TJson>];
      for (const k of Object.keys(oa)) {
        if (!Object.hasOwn(ob, k)) push({ path: pathString([...at, k]), kind: 'removed', sent: oa[k] });
        else walk(oa[k], ob[k], [...at, k]);
      }
      for (const k of Object.keys(ob)) if (!Object.hasOwn(oa, k)) push({ path: pathString([...at, k]), kind: 'added', received: ob[k] });
      return;
    }
    if (!same(a, b)) push({ path: pathString(at), kind: 'changed', sent: a, received: b });
  };
  walk(sent, received, []);
  return { diffs, more };
}

/** Where two texts first differ: offset in characters, and 1-based line and column. */
function firstDifference(a: string, b: string): { offset: number; line: number; column: number } {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const before = a.slice(0, i);
  const line = before.split('\n').length;
  return { offset: i, line, column: i - before.lastIndexOf('\n') };
}

export function compareBodies(sent: string, received: string): TComparison {
  if (sent === received) return { verdict: 'identical' };
  const [a, b] = [parseBody(sent), parseBody(received)];
  if (a.json && b.json) {
    const { diffs, more } = diffJson(a.value, b.value);
    return diffs.length ? { verdict: 'different', diffs, more } : { verdict: 'same-json' };
  }
  return { verdict: 'different-text', ...firstDifference(sent, received) };
}

/** The paths to mark on each side: changed on both, removed on the sent side, added on the received. */
export function diffMarks(diffs: TDiff[]): { sent: Map<string, TDiffKind>; received: Map<string, TDiffKind> } {
  const sent = new Map<string, TDiffKind>();
  const received = new Map<string, TDiffKind>();
  for (const d of diffs) {
    if (d.kind !== 'added') sent.set(d.path, d.kind);
    if (d.kind !== 'removed') received.set(d.path, d.kind);
  }
  return { sent, received };
}
