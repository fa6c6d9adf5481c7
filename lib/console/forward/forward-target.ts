import { Agent } from 'undici';
import { env } from '@/lib/env';
import { checkOutboundUrl, type TOutboundUrlCheck } from '@/lib/net/outbound-url';
import { lookupGuard, loopbackOnlyRefusal } from '@/lib/net/ssrf';
import { processSingleton } from '@/lib/process-singleton';

// Where a forward may go: the rule of every URL staff type into the console (as alert targets,
// lib/console/alerts/alert-target.ts): a global unicast address, or loopback when
// DELIVERY_ALLOW_PRIVATE is true; private, link-local, CGNAT and every other range never, so the
// console cannot be made a probe of the network it runs in. Checked on the resolved name before
// anything is sent, and again on the address the socket connects to (DNS rebinding).

export const FORWARD_RULE = 'forwards go to public addresses only (loopback only with DELIVERY_ALLOW_PRIVATE=true)';

export const refuseForwardAddress = (address: string): string | null => loopbackOnlyRefusal(address, env.DELIVERY_ALLOW_PRIVATE);

/** The URL's check: resolves the host name, never connects. */
export const checkForwardUrl = (url: string): Promise<TOutboundUrlCheck> => checkOutboundUrl(url, refuseForwardAddress, FORWARD_RULE);

/** The pool forwards go through: the same check in its connect step, on the resolved address. */
export function forwardAgent(): Agent {
  return processSingleton('forward-agent', () => new Agent({
    keepAliveTimeout: 10_000,
    connect: { timeout: 10_000, lookup: lookupGuard(refuseForwardAddress, FORWARD_RULE) },
  }));
}
