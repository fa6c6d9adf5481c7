import { env } from '@/lib/env';

/**
 * Whether `url` is one of this app's own receivers: `/ingest/…` under PUBLIC_URL or CONSOLE_PUBLIC_URL.
 * A delivery there reaches this app itself, so it is sent even where deliveries to private and
 * loopback addresses are refused (DELIVERY_ALLOW_PRIVATE=false, the default of `npm start`): the
 * README's first webhook points at such a receiver on localhost.
 */
export function isOwnReceiverUrl(url: URL): boolean {
  if (!url.pathname.startsWith('/ingest/') || url.username || url.password) return false;
  return [env.PUBLIC_URL, env.CONSOLE_PUBLIC_URL].some((base) => new URL(base).origin === url.origin);
}
