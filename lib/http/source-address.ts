/**
 * The sender's address: the first hop of X-Forwarded-For, which scripts/server.mjs sets to the peer
 * address (a client-sent value is replaced), or with TRUST_PROXY=true keeps the chain of the proxy in
 * front, whose first hop is the client. IPv4-mapped IPv6 addresses are shown as plain IPv4.
 */
export function sourceAddress(forwardedFor: string | null): string {
  return (forwardedFor ?? '').split(',')[0].trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1').slice(0, 100);
}
