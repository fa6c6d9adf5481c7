'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { hasRole } from '@/lib/console/staff/roles';
import { isActiveNavLink, NAV_LINKS } from './nav-items';

/**
 * The sections the staff member's role may open (the others are not shown). `className` sets the
 * display (the header's menu shows and hides it): two columns of links below lg, a row from lg on.
 */
export function NavLinks({ id, className = '', role = 'viewer' }: { id?: string; className?: string; role?: string }) {
  const pathname = usePathname();
  return (
    <nav id={id} aria-label="Main" className={`flex-wrap items-center gap-1 ${className}`}>
      {NAV_LINKS.filter((l) => !('role' in l) || hasRole(role, l.role)).map((l) => {
        const active = isActiveNavLink(l, pathname);
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-2.5 py-2 text-sm font-medium transition-colors max-lg:w-[calc(50%-0.125rem)] lg:py-1.5 ${active ? 'bg-white/15 text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white'}`}
          >
            {l.label}
          </Link>
        );
      })}
    </nav>
  );
}
