import Form from 'next/form';
import Link from 'next/link';
import type { TListedNonprofit, TPage } from '@/lib/console/connect-api';
import type { TErrorInfo } from '@/lib/console/error-info';
import { Badge } from '@/components/console/badge';
import { buttonClass } from '@/components/console/button-class';
import { ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { Input } from '@/components/console/form';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';

// Nonprofits & Connects as a list (issue 41 item 7): every registered nonprofit with this account's
// Connect for it, newest first, searched and paged by the service (EXT GET /v1/nonprofits): an
// EIN's digits, a CID, or part of a name. A row opens the nonprofit and its Connect below.

export type TNonprofitListState = { data?: TPage<TListedNonprofit>; error?: TErrorInfo; unsupported?: boolean };

const listHref = (q: string, pageToken?: string) => {
  const qs = new URLSearchParams();
  if (q) qs.set('q', q);
  if (pageToken) qs.set('pageToken', pageToken);
  const s = qs.toString();
  return s ? `/nonprofits?${s}#list` : '/nonprofits#list';
};

const openHref = (n: TListedNonprofit, q: string) => {
  const qs = new URLSearchParams({ ein: n.ein });
  if (n.connect) qs.set('connect', n.connect.id);
  if (q) qs.set('q', q);
  return `/nonprofits?${qs}`;
};

export function NonprofitList({ q, pageToken, state, openEin }: { q: string; pageToken?: string; state: TNonprofitListState; openEin: string }) {
  if (state.unsupported) {
    return (
      <p className="text-sm text-slate-500">This service does not list its nonprofits (an extension): look one up by EIN or open a Connect by its CID below.</p>
    );
  }
  const results = state.data?.results ?? [];
  return (
    <section id="list" className="space-y-3" aria-label="Nonprofits and their Connects">
      <Form action="/nonprofits" className="flex flex-wrap items-center gap-2" role="search" aria-label="Search nonprofits and Connects">
        <label htmlFor="nonprofit-q" className="sr-only">
          Search by name, EIN or CID
        </label>
        <Input
          id="nonprofit-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={100}
          placeholder="Name, EIN or CID (test_…)"
          className="min-w-0 flex-1 sm:max-w-sm"
        />
        <button type="submit" className={buttonClass('secondary')}>
          Search
        </button>
        {q ? (
          <Link href="/nonprofits#list" className="text-sm font-medium text-indigo-700 hover:underline">
            Clear
          </Link>
        ) : null}
      </Form>
      {state.error ? <ErrorCallout error={state.error} title="The nonprofits could not be listed" /> : null}
      {!state.error && results.length === 0 ? (
        q ? (
          <EmptyState title={`Nothing matches “${q}”`}>
            Search by a part of the name, the EIN&apos;s digits, or a CID. A nonprofit not registered yet can be registered below.
          </EmptyState>
        ) : (
          <EmptyState title={pageToken ? 'No more nonprofits' : 'No nonprofits registered yet'}>Register one below, then create its Connect.</EmptyState>
        )
      ) : null}
      {results.length ? (
        <Table label="Nonprofits" cards>
          <thead>
            <tr>
              <Th>Nonprofit</Th>
              <Th>EIN</Th>
              <Th>Connect</Th>
              <Th>Registered</Th>
            </tr>
          </thead>
          <TBody cards>
            {results.map((n) => (
              <tr key={n.id} className={`${CARD_ROW} ${n.ein === openEin ? 'bg-indigo-50/60' : ''}`} data-testid="nonprofit-row" data-ein={n.ein}>
                <Td card className="[overflow-wrap:anywhere]">
                  <Link href={openHref(n, q)} aria-current={n.ein === openEin ? 'true' : undefined} className="font-medium text-indigo-700 hover:underline">
                    {n.name}
                  </Link>
                  {n.preferredName && n.preferredName !== n.name ? <div className="text-xs text-slate-600">goes by {n.preferredName}</div> : null}
                </Td>
                <Td card="EIN" className="font-mono text-xs">
                  {n.ein}
                </Td>
                <Td card="Connect">
                  {n.connect ? (
                    <div className="min-w-0">
                      <div className="flex flex-wrap items-center gap-1.5">
                        <Link
                          href={`/connects/${encodeURIComponent(n.connect.id)}/grants`}
                          className="break-all font-mono text-xs text-indigo-700 hover:underline"
                          title="Its grants"
                        >
                          {n.connect.id}
                        </Link>
                        {n.connect.active ? null : <Badge tone="gray">inactive</Badge>}
                      </div>
                      {n.connect.name ? <div className="text-xs text-slate-600">{n.connect.name}</div> : null}
                    </div>
                  ) : (
                    <span className="text-xs text-slate-600">none for this account</span>
                  )}
                </Td>
                <Td card="Registered">
                  <Timestamp value={n.createdAt} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      ) : null}
      {pageToken || state.data?.nextPageToken ? (
        <nav aria-label="Pages of nonprofits" className="flex justify-end gap-4 text-sm">
          {pageToken ? (
            <Link href={listHref(q)} className="font-medium text-indigo-700 hover:underline">
              ← First page
            </Link>
          ) : null}
          {state.data?.nextPageToken ? (
            <Link href={listHref(q, state.data.nextPageToken)} className="font-medium text-indigo-700 hover:underline">
              Older →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
