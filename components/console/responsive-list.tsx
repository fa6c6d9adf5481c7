import { Fragment, type ReactNode } from 'react';
import { Table, TBody, Td, Th } from './table';

// A list declared once by its columns: a table on wide screens, a card per item on narrow ones
// (both rendered, CSS shows one), each column a cell of the row and a labelled field of the card.

type TDataAttributes = Record<`data-${string}`, string | number | undefined>;

export type TListColumn<T> = {
  id: string;
  header: string;
  /** The table cell's classes (width, alignment); a right-aligned cell's header is right-aligned too. */
  className?: string;
  /** false: not a field of the card (its head shows it, or it is only for wide screens). */
  inCard?: false;
  cell: (item: T) => ReactNode;
};

export function ResponsiveList<T>({
  label,
  items,
  itemKey,
  columns,
  cardHead,
  rowAttributes,
  cardAttributes,
}: {
  /** The list's accessible name, for the table and the cards alike. */
  label: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  columns: readonly TListColumn<T>[];
  /** The top of a card, above its fields. */
  cardHead: (item: T) => ReactNode;
  /** data-* attributes (test ids and state) of a row and of a card. */
  rowAttributes?: (item: T) => TDataAttributes;
  cardAttributes?: (item: T) => TDataAttributes;
}) {
  const fields = columns.filter((c) => c.inCard !== false);
  return (
    <>
      <div className="hidden md:block">
        <Table label={label}>
          <thead>
            <tr>
              {columns.map((c) => (
                <Th key={c.id} className={c.className?.includes('text-right') ? 'text-right' : ''}>
                  {c.header}
                </Th>
              ))}
            </tr>
          </thead>
          <TBody>
            {items.map((item) => (
              <tr key={itemKey(item)} className="hover:bg-slate-50" {...rowAttributes?.(item)}>
                {columns.map((c) => (
                  <Td key={c.id} className={c.className}>
                    {c.cell(item)}
                  </Td>
                ))}
              </tr>
            ))}
          </TBody>
        </Table>
      </div>
      <ul className="space-y-2 md:hidden" aria-label={label}>
        {items.map((item) => (
          <li key={itemKey(item)} className="rounded-lg border border-slate-200 bg-surface p-3" {...cardAttributes?.(item)}>
            {cardHead(item)}
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
              {fields.map((c) => (
                <Fragment key={c.id}>
                  <dt className="text-slate-500">{c.header}</dt>
                  <dd>{c.cell(item)}</dd>
                </Fragment>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
