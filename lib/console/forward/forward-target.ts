import { env } from '@/lib/env';
import { outboundTarget } from '@/lib/net/outbound-url';

// Where a forward may go: the rule of every URL typed into the console (lib/net/outbound-url.ts, as
// alert targets), checked on the resolved name before anything is sent and again at the connect.

const target = outboundTarget(
  'forward',
  'forwards go to public addresses only (loopback only with DELIVERY_ALLOW_PRIVATE=true)',
  () => env.DELIVERY_ALLOW_PRIVATE,
);

/** The URL's check: resolves the host name, never connects. */
export const checkForwardUrl = target.check;
/** The pool forwards go through. */
export const forwardAgent = target.agent;
