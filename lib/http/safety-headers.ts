// What every answer carries besides its request id (proxy.ts sets them on what Next serves; the
// API's fast path, lib/service/grants/grant-fast-path.ts, on what it serves itself). Nothing may be
// cached (API keys, secrets, donors' details, staff pages) but the public key set and the API
// reference's script; console pages may not be framed (clickjacking).

export const SERVICE_PATHS = /^\/(v1(\/|$)|oauth\/token$|\.well-known\/jwks\.json$|connect\/|openapi\.json$|reference(\/|$))/;
const CACHEABLE = /^\/(\.well-known\/jwks\.json|reference\/scalar\.js)$/;

/** The headers every answer of `pathname` carries besides its request id. */
export function safetyHeaders(pathname: string): Record<string, string> {
  const headers: Record<string, string> = CACHEABLE.test(pathname) ? {} : { 'cache-control': 'no-store' };
  if (!SERVICE_PATHS.test(pathname)) {
    headers['x-frame-options'] = 'DENY';
    headers['content-security-policy'] = "frame-ancestors 'none'";
  }
  return headers;
}
