import { z } from 'zod';
import { env } from '@/lib/env';
import { outboundTarget } from '@/lib/net/outbound-url';

// Where an alert may go: an e-mail list (mailto:, through SMTP_URL), or a URL. Where a POST may go: the rule of every URL typed into the console (lib/net/outbound-url.ts),
// checked when a rule is made (the host resolved, nothing sent) and again at every POST's connect.

const target = outboundTarget(
  'alert',
  'alert targets must be public addresses (loopback only with DELIVERY_ALLOW_PRIVATE=true)',
  () => env.DELIVERY_ALLOW_PRIVATE,
);

export const refuseAlertAddress = target.refuse;
export const alertAgent = target.agent;

const EMAIL = z.email();
const MAX_RECIPIENTS = 10;

/** The addresses of a `mailto:` target (`mailto:a@x.org,b@x.org`; a query such as ?subject= is not taken), or null when it is not one. */
export function mailtoRecipients(url: string): string[] | null {
  if (!/^mailto:/i.test(url)) return null;
  const list = url.slice('mailto:'.length);
  return decodeURIComponent(list)
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

export const isMailto = (url: string) => /^mailto:/i.test(url);

/** Why this target cannot take alerts, or null: a mailto: list, or a URL (its host resolved, nothing sent). */
export async function alertTargetRefusal(
  url: string,
  format: 'standard' | 'slack' = 'standard',
): Promise<{ path: 'targetUrl' | 'targetFormat'; reason: string } | null> {
  if (isMailto(url)) {
    if (format === 'slack') return { path: 'targetFormat', reason: 'slack is for a URL; a mailto: target is sent as e-mail' };
    let recipients: string[] | null;
    try {
      recipients = mailtoRecipients(url);
    } catch {
      recipients = null;
    }
    if (!recipients?.length || /[?#]/.test(url) || recipients.length > MAX_RECIPIENTS || recipients.some((r) => !EMAIL.safeParse(r).success))
      return { path: 'targetUrl', reason: `must be mailto: and 1 to ${MAX_RECIPIENTS} e-mail addresses separated by commas` };
    if (!env.SMTP_URL) return { path: 'targetUrl', reason: 'is an e-mail address, but this console has no SMTP server (set SMTP_URL)' };
    return null;
  }
  const check = await target.check(url);
  return check.ok ? null : { path: 'targetUrl', reason: check.reason };
}
