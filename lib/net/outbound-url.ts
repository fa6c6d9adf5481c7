import dns from 'node:dns/promises';
import net from 'node:net';

// A URL staff type into the console (an alert target, a forward's destination), checked before
// anything is sent: an absolute http(s) URL without credentials whose host's every address passes
// `refuse` (lib/net/ssrf.ts). The name is resolved here and nothing is connected to; the agent that
// sends checks the address the socket connects to again (`lookupGuard`), so DNS rebinding between
// this check and the request is refused as well.

export type TOutboundUrlCheck =
  | { ok: true; url: URL }
  | { ok: false; kind: 'invalid' | 'unresolved' | 'refused'; reason: string };

export async function checkOutboundUrl(url: string, refuse: (address: string) => string | null, rule: string): Promise<TOutboundUrlCheck> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, kind: 'invalid', reason: 'must be an absolute http(s) URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { ok: false, kind: 'invalid', reason: 'must be an absolute http(s) URL' };
  if (target.username || target.password) return { ok: false, kind: 'invalid', reason: 'must not carry a user name or password' };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch (err) {
      return { ok: false, kind: 'unresolved', reason: `its host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
  }
  for (const address of addresses) {
    const reason = refuse(address);
    if (reason) return { ok: false, kind: 'refused', reason: `is refused: ${reason}; ${rule}` };
  }
  return { ok: true, url: target };
}
