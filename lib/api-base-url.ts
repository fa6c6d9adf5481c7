// One way to name a Giving Connect API: the root under which /v1, /oauth and /connect live.
// Operators paste a base URL with or without /v1 (the start banner prints it with); both mean
// the same service, so the console's configuration keeps the root and builds every API call and
// every link (donor page, grants) from it.

/** `https://api.example.org/v1/` → `https://api.example.org`; a path prefix stays, a query or credentials do not. */
export function normalizeApiBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

/** An absolute URL without its trailing slashes. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
