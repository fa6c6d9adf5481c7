import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { ScrollRegion } from './scroll-region';

// Dense tables for lists of records. A table with `cards` is a card per row below Tailwind's `md`
// (as the timeline is on a phone): its header row is left to screen readers, each row is a box, and
// each cell a line led by its column's name (the cell's `card` label; `card` true: a line of its own).
// One table in the page, so nothing is rendered twice and nothing scrolls inside the table.

export function Table({ children, label, cards = false }: { children: ReactNode; label?: string; cards?: boolean }) {
  if (!cards) {
    return (
      <ScrollRegion label={label} className="rounded-lg border border-slate-200 bg-surface">
        <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
          {children}
        </table>
      </ScrollRegion>
    );
  }
  return (
    <ScrollRegion label={label} className="max-md:overflow-visible md:rounded-lg md:border md:border-slate-200 md:bg-surface">
      <table aria-label={label} className="min-w-full text-sm max-md:block max-md:[&>thead]:sr-only md:divide-y md:divide-slate-200">
        {children}
      </table>
    </ScrollRegion>
  );
}

export function Th({ className = '', ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={`whitespace-nowrap bg-slate-50 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 ${className}`}
      {...props}
    />
  );
}

/** A row of a `cards` table: a box of its own on a phone. */
export const CARD_ROW = 'max-md:block max-md:rounded-lg max-md:border max-md:border-slate-200 max-md:bg-surface max-md:p-3';

const CARD_CELL = 'max-md:px-0 max-md:py-1';
const CARD_LABELLED =
  'max-md:grid max-md:grid-cols-[6rem_minmax(0,1fr)] max-md:gap-x-3 max-md:before:text-xs max-md:before:text-slate-500 max-md:before:content-[attr(data-label)_/_""]';

/** A cell; in a `cards` table `card` is its line's label on a phone (true: a line without one). */
export function Td({ className = '', card, ...props }: TdHTMLAttributes<HTMLTableCellElement> & { card?: string | true }) {
  const cardClass = card === undefined ? '' : typeof card === 'string' ? `${CARD_CELL} ${CARD_LABELLED}` : `${CARD_CELL} max-md:block`;
  return <td data-label={typeof card === 'string' ? card : undefined} className={`px-3 py-2 align-top text-slate-700 ${cardClass} ${className}`} {...props} />;
}

export function TBody({ children, cards = false }: { children: ReactNode; cards?: boolean }) {
  return <tbody className={cards ? 'max-md:block max-md:space-y-2 md:divide-y md:divide-slate-100' : 'divide-y divide-slate-100'}>{children}</tbody>;
}
