import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { ScrollRegion } from './scroll-region';

// Dense tables for lists of records.

export function Table({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ScrollRegion label={label} className="rounded-lg border border-slate-200 bg-surface">
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
        {children}
      </table>
    </ScrollRegion>
  );
}

export function Th({ className = '', ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`whitespace-nowrap bg-slate-50 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 ${className}`} {...props} />;
}

export function Td({ className = '', ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-top text-slate-700 ${className}`} {...props} />;
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-slate-100">{children}</tbody>;
}
