'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { hasRole } from '@/lib/console/staff/roles';
import { isActiveNavLink, NAV_LINKS } from './nav-items';

/** The sections the staff member's role may open (the others are not shown). */
export function NavLinks({ className = '', role = 'viewer' }: { className?: string; role?: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className={`flex flex-wrap items-center gap-1 ${className}`}>
      {NAV_LINKS.filter((l) => !('role' in l) || hasRole(role, l.role)).map((l) => {
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
