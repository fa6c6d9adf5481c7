import Link from 'next/link';
import { Badge, ReconciliationBadge } from '@/components/console/badge';
import { EmptyState } from '@/components/console/empty-state';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { GRANTS_PER_PAGE, type TReconGrant, type TReconView } from '@/lib/console/reconciliation/load-reconciliation';
import { formatMoney } from '@/lib/money';
import { formatUtcLabel } from '@/lib/console/format';

// The reconciliation page's list of the day's grants: those with a difference, or all of them (a
// filter of links: a list is a URL), a page at a time, each with its money, status, fund and how
// its delivery went to each webhook it should have reached.

type TListHref = { date: string; nonprofit?: string; show: 'differences' | 'all'; page?: number };

export function reconHref({ date, nonprofit, show, page }: TListHref): string {
  const qs = new URLSearchParams({
    date,
    ...(nonprofit ? { nonprofit } : {}),
    ...(show === 'all' ? { show } : {}),
    ...(page && page > 1 ? { page: String(page) } : {}),
  });
  return `/reconciliation?${qs}`;
}

const LINK = 'font-medium text-indigo-700 hover:underline';

function Filter({ view, base }: { view: TReconView; base: Omit<TListHref, 'show'> }) {
  const choices: [TListHref['show'], string][] = [
    ['differences', `With a difference (${view.list.differing.toLocaleString('en-US')})`],
    ['all', `All grants (${view.totals.grants.toLocaleString('en-US')})`],
  ];
  return (
    <nav aria-label="Which grants" className="inline-flex flex-wrap rounded-md shadow-sm ring-1 ring-inset ring-slate-300" data-testid="recon-list-filter">
      {choices.map(([show, text]) => {
        const current = view.list.show === show;
        return (
          <Link
            key={show}
            href={reconHref({ ...base, show })}
            aria-current={current ? 'true' : undefined}
            className={`px-3 py-2 text-xs font-medium first:rounded-l-md last:rounded-r-md ${current ? 'bg-indigo-600 text-white' : 'bg-surface text-slate-700 hover:bg-slate-50'}`}
          >
            {text}
          </Link>
        );
      })}
    </nav>
  );
}

function Pages({ view, base }: { view: TReconView; base: Omit<TListHref, 'show'> }) {
  const { page, pages, show } = view.list;
  if (pages <= 1 || page > pages) return null;
  return (
    <nav aria-label="Pages of grants" className="flex items-center justify-between gap-3 text-sm" data-testid="recon-pages">
      {page > 1 ? (
        <Link href={reconHref({ ...base, show, page: page - 1 })} className={`${LINK} py-1`} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-xs text-slate-600">{`Page ${page} of ${pages}`}</span>
      {page < pages ? (
        <Link href={reconHref({ ...base, show, page: page + 1 })} className={`${LINK} py-1`} rel="next">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

const money = (cents: number, currency: string) => formatMoney(cents, currency);

function Deliveries({ g, names }: { g: TReconGrant; names: Map<string, string> }) {
  if (g.webhooks === 0) return <span className="text-slate-500">no webhook subscribed</span>;
  return (
    <div className="space-y-1">
      <span className={g.differences.length ? '' : 'text-emerald-700'}>{`delivered to ${g.delivered} of ${g.webhooks}`}</span>
      {g.differences.map((d) => (
        <span key={d.webhookId} className="block break-words" data-testid="recon-difference">
          {names.get(d.webhookId) ?? d.webhookId}: <ReconciliationBadge value={d.state} wrap />
        </span>
      ))}
      {g.waiting.map((w) => (
        <span key={w.webhookId} className="block break-words text-slate-600" data-testid="recon-waiting">
          {names.get(w.webhookId) ?? w.webhookId}: not sent yet — waiting: {w.why}
        </span>
      ))}
    </div>
  );
}

export function GrantList({ view, names }: { view: TReconView; names: Map<string, string> }) {
  const base = { date: view.date, nonprofit: view.nonprofit ?? undefined };
  const { list, totals } = view;
  const past = list.page > list.pages;
  const from = (list.page - 1) * GRANTS_PER_PAGE;
  return (
    <section className="space-y-3" aria-label="Grants of the day">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Filter view={view} base={base} />
        {list.grants.length ? (
          <p className="text-xs text-slate-600" data-testid="recon-list-range">
            {`${(from + 1).toLocaleString('en-US')}–${(from + list.grants.length).toLocaleString('en-US')} of ${list.matching.toLocaleString('en-US')}, in the order they were made`}
          </p>
        ) : null}
      </div>
      {past ? (
        <EmptyState title={`There is no page ${list.page}`}>
          This list has {list.pages === 1 ? 'one page' : `${list.pages} pages`}.{' '}
          <Link href={reconHref({ ...base, show: list.show })} className={LINK}>
            First page
          </Link>
        </EmptyState>
      ) : list.grants.length === 0 ? (
        <EmptyState title={list.show === 'all' ? 'No grants that day' : 'No differences'}>
          {list.show === 'all'
            ? `No grant was made ${view.nonprofit ? 'to this nonprofit ' : ''}on ${view.date} (${view.timeZone}).`
            : `Every grant of ${view.date} reconciles${totals.grants ? '' : ' (there were none)'}.`}
        </EmptyState>
      ) : (
        <Table label={list.show === 'all' ? 'All grants of the day' : 'Grants with a difference'} cards>
          <thead>
            <tr>
              <Th>Grant</Th>
              <Th>{`Made (${view.timeZone})`}</Th>
              <Th>Nonprofit</Th>
              <Th>Fund</Th>
              <Th>Status</Th>
              <Th className="text-right">Amount</Th>
              <Th className="text-right">Fee</Th>
              <Th className="text-right">Net</Th>
              <Th>Deliveries</Th>
            </tr>
          </thead>
          <TBody cards>
            {list.grants.map((g) => (
              <tr key={g.grantId} className={CARD_ROW} data-testid="recon-grant" data-tracking-id={g.trackingId}>
                <Td card="Grant">
                  <Link
                    href={`/cases/${encodeURIComponent(g.trackingId)}`}
                    className="inline-block whitespace-nowrap py-1 font-mono text-xs text-indigo-700 hover:underline"
                  >
                    {g.trackingId}
                  </Link>
                </Td>
                <Td card="Made" className="whitespace-nowrap font-mono text-xs tabular-nums">
                  <time dateTime={g.createdAt} title={formatUtcLabel(g.createdAt)}>
                    {g.createdLocal}
                  </time>
                </Td>
                <Td card="Nonprofit" className="text-xs">
                  <div>
                    {g.nonprofitName}
                    <span className="block font-mono text-slate-500">{`EIN ${g.ein}`}</span>
                  </div>
                </Td>
                <Td card="Fund" className="text-xs">
                  {g.fundName}
                </Td>
                <Td card="Status">
                  <div>
                    <Badge tone={g.status === 'Canceled' ? 'red' : g.status === 'Completed' ? 'green' : 'gray'}>{g.status}</Badge>
                  </div>
                </Td>
                <Td card="Amount" className="text-right tabular-nums max-md:text-left">
                  {money(g.money.amount, totals.currency)}
                </Td>
                <Td card="Fee" className="text-right tabular-nums max-md:text-left">
                  <div>
                    {money(g.money.fee, totals.currency)}
                    {g.money.covered ? <span className="block text-xs text-slate-500">covered by donor</span> : null}
                  </div>
                </Td>
                <Td card="Net" className="text-right tabular-nums max-md:text-left">
                  {money(g.money.net, totals.currency)}
                </Td>
                <Td card="Deliveries" className="text-xs">
                  <Deliveries g={g} names={names} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
      <Pages view={view} base={base} />
    </section>
  );
}
