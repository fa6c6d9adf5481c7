import { Agent } from 'undici';
import { env } from '@/lib/env';
import { checkOutboundUrl } from '@/lib/net/outbound-url';
import { lookupGuard, loopbackOnlyRefusal } from '@/lib/net/ssrf';
import { processSingleton } from '@/lib/process-singleton';

// Where an alert's POST may go: the service's SSRF classification (lib/net/ssrf.ts), stricter for a
// URL typed into the console: a global unicast address, or loopback when DELIVERY_ALLOW_PRIVATE is
// true (local and test setups); private, link-local, CGNAT and every other special range never.
// Checked when a rule is made (the URL's host resolved, nothing sent) and again on the address the
// socket connects to at every POST (DNS rebinding).

const RULE = 'alert targets must be public addresses (loopback only with DELIVERY_ALLOW_PRIVATE=true)';

export const refuseAlertAddress = (address: string): string | null => loopbackOnlyRefusal(address, env.DELIVERY_ALLOW_PRIVATE);

/** Why this URL cannot be an alert target, or null. Resolves the host name; never connects. */
export async function alertTargetRefusal(url: string): Promise<string | null> {
  const check = await checkOutboundUrl(url, refuseAlertAddress, RULE);
  return check.ok ? null : check.reason;
}

/** The pool alert POSTs go through: the same check in its connect step, on the resolved address. */
export function alertAgent(): Agent {
  return processSingleton('alert-agent', () => new Agent({
    keepAliveTimeout: 10_000,
    connect: { timeout: 10_000, lookup: lookupGuard(refuseAlertAddress, RULE) },
  }));
}
