import { Pager } from '@/components/console/pager';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge } from '@/components/console/badge';
import { ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { PageHeader } from '@/components/console/page-header';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { loadGrantsView } from '@/lib/console/connects/grants-view';
import { pageQuery, ZPageTokenSearch, type TPageProps } from '@/lib/http/page-props';
import { formatMoney } from '@/lib/money';

export const metadata: Metadata = { title: 'Grants' };

const STATUS_TONE = { Initiated: 'blue', Completed: 'green', Canceled: 'gray' } as const;

export default async function GrantsPage({ params, searchParams }: TPageProps<{ id: string }>) {
  const { id } = await params;
  const { pageToken } = pageQuery(await searchParams, ZPageTokenSearch);
  const { view } = await loadGrantsView(id, pageToken);
  const { connectError, grants, grantsError, donorPage } = view;
  const base = `/connects/${encodeURIComponent(id)}/grants`;

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={
          <Link href={`/nonprofits?connect=${encodeURIComponent(id)}`} className="hover:underline">
            Nonprofits & Connects / <span className="font-mono">{id}</span>
          </Link>
        }
        title="Grants"
        description="Newest first, read with the Connect's API key."
      />
      {connectError ? (
        <ErrorCallout error={connectError} title={connectError.status === 404 ? 'No such Connect for this account' : 'The Connect could not be loaded'} />
      ) : null}
      {view.noApiKey ? <ErrorCallout error={{ message: 'The API returned this Connect without an API key, so its grants cannot be listed.' }} /> : null}
      {grantsError ? <ErrorCallout error={grantsError} title="The grants could not be loaded" /> : null}
      {grants ? (
        grants.results.length === 0 ? (
          <EmptyState title={pageToken ? 'No more grants' : 'No grants yet'}>
            {pageToken ? (
              <Link href={base} className="text-indigo-700 hover:underline">
                Back to the newest
              </Link>
            ) : (
              <>
                Give through the donor page{' '}
                <a href={donorPage} className="break-all font-mono text-indigo-700 hover:underline" target="_blank" rel="noreferrer" data-testid="donor-link">
                  {donorPage}
                </a>
                ; each grant also sends <code className="font-mono">grant.succeeded</code> to the account&apos;s webhooks.
              </>
            )}
          </EmptyState>
        ) : (
          <>
            <Table label="Grants">
              <thead>
                <tr>
                  <Th>Created (UTC)</Th>
                  <Th>Tracking</Th>
                  <Th className="text-right">Amount</Th>
                  <Th className="text-right">Fee</Th>
                  <Th>Status</Th>
                  <Th>Fund</Th>
                  <Th>Donor</Th>
                  <Th>Note</Th>
                </tr>
              </thead>
              <TBody>
                {grants.results.map((g) => (
                  <tr key={g.id} className="hover:bg-slate-50" data-testid="grant-row" title={g.id}>
                    <Td>
                      <Timestamp value={g.createdAt} />
                    </Td>
                    <Td className="font-mono text-xs">
                      <Link href={`/cases/${encodeURIComponent(g.trackingId)}`} className="text-indigo-700 hover:underline" data-testid="grant-tracking-id">
                        {g.trackingId}
                      </Link>
                    </Td>
                    <Td className="text-right font-mono tabular-nums">{formatMoney(g.amount)}</Td>
                    <Td className="text-right font-mono text-xs tabular-nums text-slate-500">
                      {formatMoney(g.feeAmount)}
                      {g.coveredFees ? ' (covered)' : ''}
                    </Td>
                    <Td>
                      <Badge tone={STATUS_TONE[g.status as keyof typeof STATUS_TONE] ?? 'gray'}>{g.status}</Badge>
                    </Td>
                    <Td>{g.fundName}</Td>
                    <Td>
                      {[g.firstName, g.lastName].filter(Boolean).join(' ') || '—'}
                      {g.email ? <div className="text-xs text-slate-500">{g.email}</div> : null}
                    </Td>
                    <Td className="max-w-xs truncate text-xs text-slate-600">{g.note}</Td>
                  </tr>
                ))}
              </TBody>
            </Table>
            <Pager
              newest={pageToken ? base : null}
              older={grants.nextPageToken ? `${base}?pageToken=${encodeURIComponent(grants.nextPageToken)}` : null}
              end="End of list"
            />
          </>
        )
      ) : null}
    </div>
  );
}
