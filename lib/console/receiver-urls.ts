// Which console receiver a URL reaches. A receipt belongs to a webhook only when it arrived at the
// receiver that the webhook's attempt was sent to, so URLs are compared after normalising what
// does not change the destination: scheme and host case, a default port, trailing slashes, and the
// query and fragment (the receiver is named by its path alone). Pure: no database, no env.

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** scheme://host[:port]/path without trailing slashes, lower-cased where URLs are case-blind; null when not a URL. */
export function normaliseUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const port = url.port && url.port !== DEFAULT_PORTS[url.protocol] ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.hostname.toLowerCase()}${port}${path}`;
}

export function sameDestination(a: string, b: string): boolean {
  const na = normaliseUrl(a);
  return na !== null && na === normaliseUrl(b);
}

export type TReceiverLike = { id: string; slug: string };

/** The receiver whose ingest URL (`{consoleUrl}/ingest/{slug}`) is this URL, or null. */
export function receiverForUrl<R extends TReceiverLike>(url: string, receivers: readonly R[], consoleUrl: string): R | null {
  const target = normaliseUrl(url);
  if (!target) return null;
  const base = normaliseUrl(consoleUrl);
  if (!base || !target.startsWith(`${base}/ingest/`)) return null;
  const slug = target.slice(base.length + '/ingest/'.length);
  return receivers.find((r) => r.slug === slug) ?? null;
}
