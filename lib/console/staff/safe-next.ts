// Where to go after signing in: only a path of this console. Anything a browser could read as
// another origin — `//host`, `/\host` (browsers treat `\` as `/`), control characters (tabs and
// newlines are stripped by browsers, so `/\t/host` becomes `//host`), a scheme — falls back.

export const DEFAULT_NEXT = '/'; // the health home

export function safeNext(value: unknown, fallback = DEFAULT_NEXT): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string' || v.length > 2000) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(v)) return fallback;
  if (!v.startsWith('/') || v.startsWith('//')) return fallback;
  // What the browser would resolve it to must stay on this origin.
  try {
    const base = 'https://console.invalid';
    const resolved = new URL(v, base);
    if (resolved.origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return v;
}
