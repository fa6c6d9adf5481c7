import { env } from '@/lib/env';
import { outboundTarget } from '@/lib/net/outbound-url';

// Where an alert's POST may go: the rule of every URL typed into the console (lib/net/outbound-url.ts),
// checked when a rule is made (the host resolved, nothing sent) and again at every POST's connect.

const target = outboundTarget('alert', 'alert targets must be public addresses (loopback only with DELIVERY_ALLOW_PRIVATE=true)', () => env.DELIVERY_ALLOW_PRIVATE);

export const refuseAlertAddress = target.refuse;
export const alertAgent = target.agent;

/** Why this URL cannot be an alert target, or null. Resolves the host name; never connects. */
export async function alertTargetRefusal(url: string): Promise<string | null> {
  const check = await target.check(url);
  return check.ok ? null : check.reason;
}
