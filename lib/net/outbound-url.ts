import dns from 'node:dns/promises';
import net from 'node:net';
import { Agent } from 'undici';
import { processSingleton } from '@/lib/process-singleton';
import { lookupGuard, loopbackOnlyRefusal } from './ssrf';

// A URL staff type into the console (an alert target, a forward's destination), checked before
// anything is sent: an absolute http(s) URL without credentials whose host's every address passes
// `refuse` (lib/net/ssrf.ts). The name is resolved here and nothing is connected to; the agent that
// sends checks the address the socket connects to again (`lookupGuard`), so DNS rebinding between
// this check and the request is refused as well.

export type TOutboundUrlCheck = { ok: true; url: URL } | { ok: false; kind: 'invalid' | 'unresolved' | 'refused'; reason: string };

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

/** Where one kind of staff-typed URL may go: its address rule, the check before sending, the pool that sends. */
export type TOutboundTarget = {
  rule: string;
  refuse: (address: string) => string | null;
  check: (url: string) => Promise<TOutboundUrlCheck>;
  agent: () => Agent;
};

/**
 * The rule of every URL staff type into the console: a global unicast address, or loopback when
 * `allowLoopback()` (DELIVERY_ALLOW_PRIVATE: local and test setups); private, link-local, CGNAT and
 * every other special range never, so the console cannot be made a probe of the network it runs in.
 * Checked on the resolved name before anything is sent, and again in the agent's connect step on the
 * address the socket connects to (DNS rebinding). `name` keeps one agent per kind per process.
 */
export function outboundTarget(name: string, rule: string, allowLoopback: () => boolean): TOutboundTarget {
  const refuse = (address: string) => loopbackOnlyRefusal(address, allowLoopback());
  return {
    rule,
    refuse,
    check: (url) => checkOutboundUrl(url, refuse, rule),
    agent: () =>
      processSingleton(`${name}-agent`, () => new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 10_000, lookup: lookupGuard(refuse, rule) } })),
  };
}
