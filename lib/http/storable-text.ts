import { ApiError, type TFieldError } from './errors';

// Text the database cannot store as it came: PostgreSQL refuses NUL in text, and a lone UTF-16
// surrogate (from a JSON "\ud800" escape) would be stored as U+FFFD, silently changed. Every
// string that comes in (JSON bodies, forms, query parameters, path ids, headers) is checked here,
// so such input is a 400 naming the field instead of a database error.

/** Why `text` cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (!text.isWellFormed()) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/**
 * The first string (value or key) in a parsed JSON value that cannot be stored, as a field error
 * (`donor.email`, `eventTypes.0`). Walked without recursion: a deeply nested body cannot overflow the stack.
 */
export function findUnstorable(value: unknown, prefix = ''): TFieldError | null {
  const stack: [string, unknown][] = [[prefix, value]];
  while (stack.length) {
    const [path, current] = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return { path, message: reason };
    } else if (current && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        const keyReason = unstorableReason(key);
        if (keyReason) return { path: childPath, message: `field name ${keyReason}` };
        stack.push([childPath, child]);
      }
    }
  }
  return null;
}

/** Throws a 400 naming the field when `value` holds a string that cannot be stored; `what` names the input ('body', 'query'). */
export function assertStorable(value: unknown, what: string): void {
  const bad = findUnstorable(value);
  if (bad) {
    throw new ApiError('bad_request', `Invalid ${what}: ${bad.path ? `${bad.path}: ` : ''}${bad.message}.`, { errors: [bad] });
  }
}

/** One form-encoded name or value (`+` is a space); null when an escape is malformed or not UTF-8. */
export function formDecode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * An application/x-www-form-urlencoded body, or null when it cannot be read as sent: an escape
 * that is malformed or not UTF-8 (which URLSearchParams would quietly turn into U+FFFD), or a
 * name or value that cannot be stored.
 */
export function parseFormStrict(body: string): URLSearchParams | null {
  const form = new URLSearchParams();
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = formDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = formDecode(eq < 0 ? '' : pair.slice(eq + 1));
    if (name === null || value === null || unstorableReason(name) || unstorableReason(value)) return null;
    form.append(name, value);
  }
  return form;
}
