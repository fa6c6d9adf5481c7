import type { Metadata } from 'next';
import Link from 'next/link';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { Button, Input } from '@/components/console/form';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { Can } from '@/components/console/role';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { loadReconciliationView } from '@/lib/console/reconciliation/reconciliation-view';
import { REPORTS_BUSY } from '@/lib/console/staff/report-slots';
import type { TPageProps } from '@/lib/http/page-props';
import { QueryError } from '@/components/console/query-error';
import { formatMoney } from '@/lib/money';
import { SUSPICIOUS_ADVICE } from '@/lib/console/timeline/explain-delivery';
import { ColumnDictionary } from './column-dictionary';
import { GrantList } from './grant-list';

export const metadata: Metadata = { title: 'Reconciliation' };
export const dynamic = 'force-dynamic';

const num = (n: number | null) =>
  n === null ? (
    <span className="text-slate-500" title="This webhook’s URL is not one of this console’s receivers: arrivals are not seen here">
      n/a
    </span>
  ) : (
    n.toLocaleString('en-US')
  );

export default async function ReconciliationPage({ searchParams }: TPageProps) {
  const page = await loadReconciliationView(await searchParams);
  if (page.queryError !== null)
    return (
      <QueryError
        title="Reconciliation"
        heading="The reconciliation cannot be shown"
        message={page.queryError}
        back={{ href: '/reconciliation', label: 'Today' }}
      />
    );
  const {
    query: q,
    view: { result, webhookNames },
  } = page;
  const names = new Map(webhookNames);
  const query = new URLSearchParams({ date: q.date, ...(q.nonprofit ? { nonprofit: q.nonprofit } : {}) });
  const r = result?.data;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Reconciliation"
        description={`A day’s grants per nonprofit, midnight to midnight in ${q.timeZone}: made, then sent, delivered (the service’s word), received and verified (this console’s receivers) for each webhook; then the grants with a difference, or every grant with its money, status and fund.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <a className="text-sm font-medium text-indigo-700 hover:underline" href={`/api/reconciliation?${query}&format=csv`} data-testid="recon-csv">
              Download CSV
            </a>
            <Can min="operator">
              <a className="text-sm font-medium text-indigo-700 hover:underline" href={`/api/reconciliation?${query}&format=csv&includeDonor=1`}>
                CSV with donor details
              </a>
            </Can>
            <a className="text-sm font-medium text-indigo-700 hover:underline" href={`/api/reconciliation?${query}`}>
              JSON
            </a>
          </div>
        }
      />
      <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Choose a day">
        <label className="text-sm">
          <span className="mb-1 block text-xs font-medium text-slate-600">Day ({q.timeZone})</span>
          <Input type="date" name="date" defaultValue={q.date} aria-label="Day" className="w-44" />
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-xs font-medium text-slate-600">Nonprofit (EIN or id; empty: all)</span>
          <Input
            name="nonprofit"
            defaultValue={q.nonprofit ?? ''}
            placeholder="e.g. 530196605"
            list="recon-nonprofits"
            aria-label="Nonprofit"
            className="w-56"
          />
          <datalist id="recon-nonprofits">
            {(r?.nonprofits ?? []).map((n) => (
              <option key={n.nonprofitId} value={n.ein}>
                {n.name}
              </option>
            ))}
          </datalist>
        </label>
        {q.show === 'all' ? <input type="hidden" name="show" value="all" /> : null}
        <Button type="submit" variant="primary">
          Show
        </Button>
      </form>
      {result === null ? (
        <Callout tone="warning" title="Two of your reports are running">
          {REPORTS_BUSY}
        </Callout>
      ) : result.error ? (
        <ErrorCallout error={result.error} />
      ) : null}
      {r ? (
        <>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3" data-testid="recon-totals">
            <Card title="Grants made">
              <p className="text-lg font-semibold tabular-nums sm:text-2xl">{r.totals.grants.toLocaleString('en-US')}</p>
            </Card>
            <Card title="Amount">
              <p className="text-lg font-semibold tabular-nums sm:text-2xl">{formatMoney(r.totals.amount, r.totals.currency)}</p>
            </Card>
            <Card title="Net to nonprofits">
              <p className="text-lg font-semibold tabular-nums sm:text-2xl">{formatMoney(r.totals.net, r.totals.currency)}</p>
              <p className="text-xs text-slate-600">{`fees ${formatMoney(r.totals.fee, r.totals.currency)}`}</p>
            </Card>
            <Card title="Differences">
              <p className={`text-lg font-semibold tabular-nums sm:text-2xl ${r.totals.differences ? 'text-rose-700' : 'text-emerald-700'}`}>
                {r.totals.differences.toLocaleString('en-US')}
              </p>
            </Card>
          </div>
          <p className="text-xs text-slate-500">
            From <Timestamp value={r.from} /> to <Timestamp value={r.to} /> (UTC).
          </p>
          {r.nonprofits.length === 0 ? (
            <EmptyState title="No grants that day">
              No grant was made {q.nonprofit ? 'to this nonprofit ' : ''}on {q.date} ({q.timeZone}).
            </EmptyState>
          ) : (
            <Table label="Per nonprofit and webhook">
              <thead>
                <tr>
                  <Th>Nonprofit</Th>
                  <Th className="text-right">Grants</Th>
                  <Th className="text-right">Amount</Th>
                  <Th>Webhook</Th>
                  <Th className="text-right">Sent</Th>
                  <Th className="text-right">Delivered</Th>
                  <Th className="text-right">Received</Th>
                  <Th className="text-right">Verified</Th>
                </tr>
              </thead>
              <TBody>
                {r.nonprofits.flatMap((n) =>
                  (n.webhooks.length ? n.webhooks : [null]).map((w, i) => (
                    <tr key={`${n.nonprofitId}-${w?.webhookId ?? 'none'}`} data-testid="recon-row">
                      <Td className={i ? 'border-t-0' : ''}>
                        {i === 0 ? (
                          <>
                            <span className="font-medium">{n.name}</span>
                            <span className="block font-mono text-xs text-slate-500">EIN {n.ein}</span>
                          </>
                        ) : null}
                      </Td>
                      <Td className="text-right tabular-nums">{i === 0 ? n.grants.toLocaleString('en-US') : ''}</Td>
                      <Td className="text-right tabular-nums">{i === 0 ? formatMoney(n.amount, r.totals.currency) : ''}</Td>
                      <Td className="max-w-56 text-xs">
                        {w ? (
                          <Link href={`/webhooks/${encodeURIComponent(w.webhookId)}`} className="break-words text-indigo-700 hover:underline">
                            {names.get(w.webhookId) ?? w.webhookId}
                          </Link>
                        ) : (
                          <span className="text-slate-500">no webhook subscribed</span>
                        )}
                      </Td>
                      <Td className="text-right tabular-nums">{w ? num(w.sent) : ''}</Td>
                      <Td className="text-right tabular-nums">{w ? num(w.delivered) : ''}</Td>
                      <Td className="text-right tabular-nums">{w ? num(w.received) : ''}</Td>
                      <Td className="text-right tabular-nums">{w ? num(w.verified) : ''}</Td>
                    </tr>
                  )),
                )}
              </TBody>
            </Table>
          )}
          {r.waiting.length ? (
            <Callout title="Paused: not sent yet, no difference">
              <ul className="space-y-1" data-testid="recon-paused">
                {r.waiting.map((w) => (
                  <li key={w.webhookId}>
                    <Link href={`/webhooks/${encodeURIComponent(w.webhookId)}`} className="font-medium underline">
                      {names.get(w.webhookId) ?? w.webhookId}
                    </Link>
                    : {w.grants === 1 ? 'one grant' : `${w.grants.toLocaleString('en-US')} grants`} not sent yet, waiting: {w.why}. They go out when it is
                    resumed.
                  </li>
                ))}
              </ul>
            </Callout>
          ) : null}
          {r.nonprofits.length ? <GrantList view={r} names={names} /> : null}
          {r.suspicious.length ? (
            <section className="space-y-2" data-testid="recon-suspicious">
              <h2 className="text-sm font-semibold text-slate-800">Suspicious arrivals ({r.totals.suspicious.toLocaleString('en-US')})</h2>
              <p className="text-xs text-slate-600">
                Delivered and verified, and then (or before) another copy with the same message id whose signature did not verify came to the receiver. No
                difference: {SUSPICIOUS_ADVICE}.
              </p>
              <ul className="space-y-1 text-xs">
                {r.suspicious.map((d) => (
                  <li key={`${d.trackingId}-${d.webhookId}`} data-testid="recon-suspicious-row">
                    <Link href={`/cases/${encodeURIComponent(d.trackingId)}`} className="inline-block py-1 font-mono text-indigo-700 hover:underline">
                      {d.trackingId}
                    </Link>{' '}
                    on {names.get(d.webhookId) ?? d.webhookId}: {d.arrivals === 1 ? 'one copy' : `${d.arrivals} copies`} that did not verify
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <ColumnDictionary />
        </>
      ) : null}
    </div>
  );
}
