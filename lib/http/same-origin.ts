import { forwardedHosts, isOriginOfHost } from './allowed-hosts';

// Cross-site request forgery, decided by where the browser says a request comes from. A page on
// another port of localhost is the same *site* as the console, so its form posts and fetches carry
// the SameSite=Lax session cookie; what tells them apart is the origin. A request that changes
// something (any method but GET, HEAD and OPTIONS) must come from one of the console's own origins:
//  - PUBLIC_URL's or CONSOLE_PUBLIC_URL's (the console as the deployment names it), or
//  - the origin of the request itself (`Origin` naming the Host it was sent to, or with TRUST_PROXY
//    a name the proxy forwarded), so the console works under each name it is opened by (localhost,
//    127.0.0.1, [::1], a LAN address). That holds only because the Host was checked first
//    (allowed-hosts.ts): under DNS rebinding a page's Origin and Host are both the attacker's name.
// `Origin` decides; without it, `Sec-Fetch-Site` other than same-origin or none refuses. A request
// with neither (a script, curl with a cookie or a personal access token) passes: a browser sends
// one of them with every cross-origin request that could change something.

export type TOriginSettings = { origins: readonly string[]; trustProxy: boolean };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `scheme://host[:port]` of each URL (the default port left out, as browsers write Origin). */
export function originsOf(urls: readonly string[]): string[] {
  return [...new Set(urls.flatMap((u) => (URL.canParse(u) ? [new URL(u).origin] : [])))];
}

/**
 * Where a cross-origin request that would change something came from (its Origin, or the
 * Sec-Fetch-Site value), or null when it may go on.
 */
export function foreignOrigin(method: string, header: (name: string) => string | null | undefined, settings: TOriginSettings): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const origin = header('origin');
  if (!origin) {
    const site = header('sec-fetch-site');
    return site && site !== 'same-origin' && site !== 'none' ? `a ${site} page (Sec-Fetch-Site: ${site})` : null;
  }
  if (settings.origins.includes(origin)) return null;
  if (!URL.canParse(origin)) return origin; // "null": a sandboxed frame, a file, a redirect from elsewhere
  const url = new URL(origin);
  const hosts = [header('host') ?? '', ...(settings.trustProxy ? forwardedHosts(header) : [])].filter(Boolean);
  return hosts.length > 0 && hosts.some((h) => isOriginOfHost(url, h)) ? null : origin;
}
