import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { loadNonprofitsView } from '@/lib/console/connects/nonprofits-view';
import { Badge } from '@/components/console/badge';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { buttonClass } from '@/components/console/button-class';
import { Card, DescriptionList } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import { ApiKeyReveal, CreateConnectForm, RegisterNonprofitForm } from './forms';
import { NonprofitList } from './nonprofit-list';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { z } from 'zod';
import { Input } from '@/components/console/form';

export const metadata: Metadata = { title: 'Nonprofits & Connects' };

const ZNonprofitsSearch = z.object({
  ein: z
    .string()
    .default('')
    .transform((ein) => ein.replace(/[\s-]/g, ''))
    .catch(''),
  connect: z
    .string()
    .default('')
    .transform((cid) => cid.trim())
    .catch(''),
  q: z
    .string()
    .max(100)
    .default('')
    .transform((q) => q.trim())
    .catch(''),
  pageToken: z.string().max(2000).optional().catch(undefined),
});

export default async function NonprofitsPage({ searchParams }: TPageProps) {
  const { ein, connect: cid, q, pageToken } = pageQuery(await searchParams, ZNonprofitsSearch);
  const {
    view: { nonprofit, connect, created, list, donorPage },
  } = await loadNonprofitsView({ ein, cid, q, pageToken });

  return (
    <div className="space-y-5">
      <PageHeader
        title="Nonprofits & Connects"
        description="Find a nonprofit by name, EIN or CID, register one, and create the Connect that donors give through."
      />

      <NonprofitList q={q} pageToken={pageToken} state={list} openEin={ein} />

      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-2">
        <div className="space-y-5">
          <Card title="Look up by EIN">
            <Form action="" className="flex items-center gap-2">
              <label htmlFor="ein" className="sr-only">
                EIN
              </label>
              <Input id="ein" name="ein" defaultValue={ein} placeholder="123456789" inputMode="numeric" className="w-48 font-mono" />
              <button type="submit" className={buttonClass('secondary')}>
                Look up
              </button>
            </Form>
            <div className="mt-4 space-y-3">
              {!nonprofit ? (
                <p className="text-sm text-slate-500">Enter a 9-digit EIN. Not registered yet? Use the form below.</p>
              ) : nonprofit.error ? (
                nonprofit.error.status === 404 ? (
                  <Callout tone="warning" title={`No nonprofit with EIN ${ein} is registered`}>
                    Register it with the form below — the EIN is filled in.
                  </Callout>
                ) : (
                  <ErrorCallout error={nonprofit.error} title="The lookup failed" />
                )
              ) : (
                <div className="space-y-3" data-testid="nonprofit">
                  <DescriptionList
                    items={[
                      [
                        'Name',
                        <span key="n" className="font-medium">
                          {nonprofit.data.name}
                        </span>,
                      ],
                      [
                        'EIN',
                        <span key="e" className="font-mono">
                          {nonprofit.data.ein}
                        </span>,
                      ],
                      ['Id', <CopyField key="i" value={nonprofit.data.id} />],
                      ['Registered', <Timestamp key="c" value={nonprofit.data.createdAt} />],
                    ]}
                  />
                  <CreateConnectForm nonprofitId={nonprofit.data.id} ein={nonprofit.data.ein} />
                </div>
              )}
            </div>
          </Card>

          <Card title="Register a nonprofit">
            <RegisterNonprofitForm ein={nonprofit?.error?.status === 404 ? ein : undefined} />
          </Card>
        </div>

        <div className="space-y-5">
          <Card title="Connect">
            <Form action="" className="mb-4 flex items-center gap-2">
              {ein ? <input type="hidden" name="ein" value={ein} /> : null}
              <label htmlFor="connect" className="sr-only">
                Connect id (CID)
              </label>
              <Input id="connect" name="connect" defaultValue={cid} placeholder="test_…" className="w-56 font-mono sm:w-80" />
              <button type="submit" className={buttonClass('secondary')}>
                Open
              </button>
            </Form>
            {!connect ? (
              <p className="text-sm text-slate-500">
                Open a Connect by its CID, or look up a nonprofit by EIN and press <strong>Create Connect</strong>
                {created.length ? <> — or pick one of the Connects created here</> : null}.
              </p>
            ) : connect.error ? (
              <ErrorCallout
                error={connect.error}
                title={connect.error.status === 404 ? `No Connect ${cid} for this account` : 'The Connect could not be loaded'}
              />
            ) : (
              <div className="space-y-4" data-testid="connect" data-cid={connect.data.id}>
                <DescriptionList
                  items={[
                    ['CID', <CopyField key="cid" value={connect.data.id} />],
                    [
                      'Name',
                      connect.data.name || (
                        <span key="nn" className="text-slate-500">
                          —
                        </span>
                      ),
                    ],
                    [
                      'Status',
                      connect.data.active ? (
                        <Badge key="a" tone="green" dot>
                          active
                        </Badge>
                      ) : (
                        <Badge key="a" tone="gray" dot>
                          inactive
                        </Badge>
                      ),
                    ],
                    [
                      'Nonprofit',
                      <span key="np" className="font-mono text-xs">
                        {connect.data.nonprofitId}
                      </span>,
                    ],
                    ['Created', <Timestamp key="c" value={connect.data.createdAt} />],
                    ['API key', <ApiKeyReveal key="k" connectId={connect.data.id} />],
                  ]}
                />
                <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3">
                  <a href={donorPage ?? undefined} target="_blank" rel="noreferrer" className={buttonClass('primary')} data-testid="donor-link">
                    Open donor page ↗
                  </a>
                  <Link href={`/connects/${encodeURIComponent(connect.data.id)}/grants`} className={buttonClass('secondary')}>
                    Grants
                  </Link>
                </div>
              </div>
            )}
          </Card>

          {created.length ? (
            <Card title="Connects created here">
              <ul className="-my-2 divide-y divide-slate-100" aria-label="Connects created here">
                {created.map((c) => (
                  <li key={c.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2" data-testid="created-connect">
                    <div className="min-w-0">
                      <Link
                        href={`/nonprofits?ein=${encodeURIComponent(c.ein)}&connect=${encodeURIComponent(c.id)}`}
                        aria-current={c.id === cid ? 'true' : undefined}
                        className="text-sm font-medium text-indigo-700 hover:underline aria-[current=true]:text-slate-900"
                      >
                        {c.name || c.id}
                      </Link>
                      <div className="break-all font-mono text-xs text-slate-500">
                        {c.id}
                        {c.ein ? <> · EIN {c.ein}</> : null}
                      </div>
                    </div>
                    <Link href={`/connects/${encodeURIComponent(c.id)}/grants`} className="text-xs font-medium text-indigo-700 hover:underline">
                      Grants →
                    </Link>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
      </div>
    </div>
  );
}
