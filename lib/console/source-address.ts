/**
 * The sender's address: the first hop of X-Forwarded-For. `next start` fills that header with the
 * socket address when no proxy in front set it, so it is always there. Behind no proxy a client
 * can put any value in it: the login limit per email does not depend on it.
 */
export function sourceAddress(forwardedFor: string | null): string {
  return (forwardedFor ?? '').split(',')[0].trim().slice(0, 100);
}
