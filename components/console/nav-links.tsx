'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { isActiveNavLink, NAV_LINKS } from './nav-items';

export function NavLinks({ className = '' }: { className?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className={`flex flex-wrap items-center gap-1 ${className}`}>
      {NAV_LINKS.map((l) => {
        const active = isActiveNavLink(l, pathname);
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
