/**
 * The sender's address: the first hop of X-Forwarded-For, which scripts/server.mjs sets to the peer
 * address (a client-sent value is replaced), or with TRUST_PROXY=true keeps the chain of the proxy in
 * front, whose first hop is the client. IPv4-mapped IPv6 addresses are shown as plain IPv4.
 */
export function sourceAddress(forwardedFor: string | null): string {
  return (forwardedFor ?? '')
    .split(',')[0]
    .trim()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')
    .slice(0, 100);
}

/**
 * The address a request came to, `host[:port]` in lower case: its Host header, or with TRUST_PROXY
 * the proxy's word for it (the first X-Forwarded-Host, else the first `host=` of Forwarded).
 */
export function arrivalHost(headers: Headers, trustProxy: boolean): string {
  const first = (v: string | null) => (v ?? '').split(',')[0].trim();
  let host = '';
  if (trustProxy) {
    host = first(headers.get('x-forwarded-host'));
    if (!host) host = /(?:^|;)\s*host="?([^";,]+)"?/i.exec(first(headers.get('forwarded')))?.[1] ?? '';
  }
  if (!host) host = headers.get('host') ?? '';
  return host.trim().toLowerCase().slice(0, 300);
}
