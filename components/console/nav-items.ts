// The console's main navigation and which entry a path belongs to. A case (/cases/…) is reached by
// search from any page, so no entry claims it: it used to light up "Problems".

export const NAV_LINKS = [
  { href: '/', label: 'Health', match: [] },
  { href: '/webhooks', label: 'Webhooks', match: ['/webhooks'] },
  { href: '/problems', label: 'Problems', match: ['/problems'] },
  { href: '/receivers', label: 'Receivers', match: ['/receivers', '/receipts'] },
  { href: '/alerts', label: 'Alerts', match: ['/alerts'] },
  { href: '/reconciliation', label: 'Reconciliation', match: ['/reconciliation'] },
  { href: '/nonprofits', label: 'Nonprofits & Connects', match: ['/nonprofits', '/connects'] },
  { href: '/audit', label: 'Audit log', match: ['/audit'] },
  { href: '/retention', label: 'Retention', match: ['/retention'] },
  { href: '/users', label: 'Staff', match: ['/users'], role: 'admin' },
  { href: '/tokens', label: 'Tokens', match: ['/tokens'], role: 'operator' },
] as const satisfies readonly { href: string; label: string; match: readonly string[]; role?: 'operator' | 'admin' }[];

/** Whether `link` is the section `pathname` is in: its own page, or a page under one of its prefixes. */
export function isActiveNavLink(link: { href: string; match: readonly string[] }, pathname: string): boolean {
  return pathname === link.href || link.match.some((m) => pathname === m || pathname.startsWith(`${m}/`));
}
