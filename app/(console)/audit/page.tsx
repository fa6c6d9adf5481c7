import { Pager } from '@/components/console/pager';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge } from '@/components/console/badge';
import { QueryError } from '@/components/console/query-error';
import { EmptyState } from '@/components/console/empty-state';
import { PageHeader } from '@/components/console/page-header';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { AUDIT_ACTIONS } from '@/lib/console/audit/audit-actions';
import { auditTargetLinks } from '@/lib/console/audit/target-links';
import { loadAuditView } from '@/lib/console/audit/audit-view';
import { pageSearchParams, type TPageProps } from '@/lib/http/page-props';
import { Button, Input, Select } from '@/components/console/form';
import { UtcTimeField } from '@/components/console/utc-time-field';

export const metadata: Metadata = { title: 'Audit log' };

// Every staff action, newest first, filtered by actor, action, target id and date range (UTC).
// Read-only: no route or action of the console changes or deletes a row.

export default async function AuditPage({ searchParams }: TPageProps) {
  const params = await searchParams;
  const page = await loadAuditView(params);
  if (page.queryError !== null)
    return (
      <QueryError title="Audit log" heading="These filters cannot be read" message={page.queryError} back={{ href: '/audit', label: 'Clear the filters' }} />
    );
  const {
    query: filters,
    view: { rows, nextPageToken },
  } = page;
  const older = nextPageToken ? `?${new URLSearchParams({ ...Object.fromEntries(pageSearchParams(params)), pageToken: nextPageToken })}` : null;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Audit log"
        description="Every staff action — sign-ins, test events, webhook and receiver changes, resends, recovers, exports — with who, when, what and the result. It cannot be edited."
      />
      <form action="/audit" method="get" className="flex flex-wrap items-end gap-2 text-sm" data-testid="audit-filters">
        <label className="flex flex-col text-xs text-slate-600">
          Actor (e-mail)
          <Input name="actor" defaultValue={filters.actor ?? ''} className="mt-0.5 w-auto" />
        </label>
        <label className="flex flex-col text-xs text-slate-600">
          Action
          <Select name="action" defaultValue={filters.action ?? ''} className="mt-0.5 w-auto">
            <option value="">any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col text-xs text-slate-600">
          Target id
          <Input name="target" defaultValue={filters.target ?? ''} placeholder="ep_…, msg_…, receiver id" className="mt-0.5 w-auto" />
        </label>
        <UtcTimeField label="From (UTC)" name="since" value={filters.since} />
        <UtcTimeField label="To (UTC)" name="until" value={filters.until} />
        <Button type="submit">Filter</Button>
        <Link href="/audit" className="px-1 py-1 text-xs text-slate-600 hover:underline">
          Clear
        </Link>
      </form>
      {rows.length === 0 ? (
        <EmptyState title="No entries">Nothing recorded matches these filters.</EmptyState>
      ) : (
        <Table label="Audit log">
          <thead>
            <tr>
              <Th>When (UTC)</Th>
              <Th>Who</Th>
              <Th>Action</Th>
              <Th>Target</Th>
              <Th>Result</Th>
              <Th>Details</Th>
            </tr>
          </thead>
          <TBody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="audit-row">
                <Td className="whitespace-nowrap">
                  <Timestamp value={r.at} />
                </Td>
                <Td className="whitespace-nowrap">{r.actor}</Td>
                <Td className="whitespace-nowrap font-mono text-xs">{r.action}</Td>
                <Td className="min-w-[12rem] break-all font-mono text-xs">
                  {auditTargetLinks(r.action, r.target).map((t) => (
                    <span key={t.id} className="mr-1.5 inline-block" data-testid="audit-target">
                      {t.href ? (
                        <Link href={t.href} className="inline-flex min-h-6 items-center text-indigo-700 hover:underline">
                          {t.id}
                        </Link>
                      ) : (
                        t.id
                      )}{' '}
                      <Link
                        href={`/audit?target=${encodeURIComponent(t.id)}`}
                        className="inline-flex min-h-6 min-w-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100 hover:text-slate-700"
                        title={`Only the entries for ${t.id}`}
                        aria-label={`Only the entries for ${t.id}`}
                      >
                        ⌕
                      </Link>
                    </span>
                  ))}
                </Td>
                <Td>
                  <Badge tone={r.result === 'ok' ? 'green' : 'red'}>{r.result}</Badge>
                </Td>
                <Td className="min-w-[18rem] break-all font-mono text-xs text-slate-600">
                  {[
                    r.environment && `env ${r.environment}`,
                    r.source && `from ${r.source}`,
                    ...Object.entries(r.detail as Record<string, unknown>)
                      .filter(([, v]) => v !== null)
                      .map(([k, v]) => `${k}: ${String(v)}`),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
      <Pager older={older ? `/audit${older}` : null} testId="audit-older" />
    </div>
  );
}
