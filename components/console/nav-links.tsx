'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/', label: 'Health', match: [] },
  { href: '/webhooks', label: 'Webhooks', match: ['/webhooks'] },
  { href: '/problems', label: 'Problems', match: ['/problems', '/cases'] },
  { href: '/receivers', label: 'Receivers', match: ['/receivers'] },
  { href: '/alerts', label: 'Alerts', match: ['/alerts'] },
  { href: '/nonprofits', label: 'Nonprofits & Connects', match: ['/nonprofits', '/connects'] },
  { href: '/audit', label: 'Audit log', match: ['/audit'] },
];

export function NavLinks({ className = '' }: { className?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className={`flex flex-wrap items-center gap-1 ${className}`}>
      {LINKS.map((l) => {
        const active = pathname === l.href || l.match.some((m) => pathname === m || pathname.startsWith(`${m}/`));
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-2 py-1.5 text-sm font-medium transition-colors sm:px-2.5 ${active ? 'bg-white/15 text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white'}`}
          >
            {l.label}
          </Link>
        );
      })}
    </nav>
  );
}
