// What every answer carries besides its request id (proxy.ts sets them on what Next serves; the
// API's fast path, lib/service/grants/grant-fast-path.ts, on what it serves itself; scripts/server.mjs
// sets EVERY_ANSWER on everything, the receiver and the front door's refusals included). Nothing may
// be cached (API keys, secrets, donors' details, staff pages) but the public key set and the API
// reference's script; no answer is sniffed into another type, no URL leaks to another site in a
// Referer; console pages may not be framed (clickjacking).
//
// Pages Next renders (the console's, and the donor's Connect pages) get a Content-Security-Policy
// whose scripts are those carrying this request's nonce, and what they load ('strict-dynamic'):
// proxy.ts puts it on the request too, where Next reads the nonce and gives it to every script it
// writes (every page is rendered per request: the root layout reads the session). Styles may be
// inline: React's style attributes, uPlot's, the no-JavaScript menu's <noscript> style. The API
// reference (Scalar, one bundled script of our own) has a fixed policy of its own.

export const SERVICE_PATHS = /^\/(v1(\/|$)|oauth\/token$|\.well-known\/jwks\.json$|connect\/|openapi\.json$|reference(\/|$))/;
const CACHEABLE = /^\/(\.well-known\/jwks\.json|reference\/scalar\.js)$/;
/** Service paths that are pages Next renders (the donor's), given the console's script policy. */
const SERVICE_PAGES = /^\/connect\//;
const REFERENCE_PAGE = /^\/reference\/?$/;
/** Pages that send stricter headers of their own (a shared case: lib/console/share/), which these would replace. */
const OWN_HEADERS = /^\/share\//;

/** On every answer, whatever serves it. */
export const EVERY_ANSWER: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * What scripts/server.mjs sets on every answer before anything else does (what proxy.ts sets later
 * replaces it; what a route sets does not): EVERY_ANSWER, but a page with headers of its own keeps
 * its stricter Referrer-Policy.
 */
export function everyAnswer(url: string): Readonly<Record<string, string>> {
  return OWN_HEADERS.test(url) ? { 'x-content-type-options': 'nosniff' } : EVERY_ANSWER;
}

const COMMON = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
];

/** This request's nonce, and whether Next runs in development (React's debugging there needs eval). */
export type TPageNonce = { nonce: string; dev?: boolean };

/** The policy of a page Next renders; `framed`: whether another site may frame it (the donor's pages). */
export function pagePolicy({ nonce, dev = false }: TPageNonce, { framed = false } = {}): string {
  const script = `script-src 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`;
  return [script, ...COMMON, ...(framed ? [] : ["frame-ancestors 'none'"])].join('; ');
}

const REFERENCE_POLICY = ["script-src 'self'", ...COMMON].join('; ');

/** A fresh nonce: 128 random bits, base64 (what CSP and Next's nonce parser accept). */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The headers every answer of `pathname` carries besides its request id. `page`: the nonce proxy.ts
 * made for this request (also set on the request's own Content-Security-Policy, where Next reads it);
 * without one, a page gets no script policy (the API's fast path serves no page).
 */
export function safetyHeaders(pathname: string, page?: TPageNonce): Record<string, string> {
  if (OWN_HEADERS.test(pathname)) return { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  const headers: Record<string, string> = CACHEABLE.test(pathname) ? { ...EVERY_ANSWER } : { 'cache-control': 'no-store', ...EVERY_ANSWER };
  if (!SERVICE_PATHS.test(pathname)) {
    headers['x-frame-options'] = 'DENY';
    headers['content-security-policy'] = page ? pagePolicy(page) : "frame-ancestors 'none'";
  } else if (page && SERVICE_PAGES.test(pathname)) {
    headers['content-security-policy'] = pagePolicy(page, { framed: true });
  } else if (REFERENCE_PAGE.test(pathname)) {
    headers['content-security-policy'] = REFERENCE_POLICY;
  }
  return headers;
}
