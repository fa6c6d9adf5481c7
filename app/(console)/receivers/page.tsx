import type { Metadata } from 'next';
import Link from 'next/link';
import { ingestUrl, listReceivers } from '@/lib/console/receivers';
import { staffView } from '@/lib/console/staff/staff-view';
import { HttpCodeBadge } from '@/components/console/badge';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { CreateReceiverForm } from './create-receiver-form';

export const metadata: Metadata = { title: 'Receivers' };

// Every receiver as the list shows it: how many secrets it holds, never one of them.
const loadReceivers = staffView(async () =>
  (await listReceivers()).map((r) => ({
    id: r.id,
    name: r.name,
    ingestUrl: ingestUrl(r.slug),
    secretCount: r.secrets.length,
    responseStatus: r.responseStatus,
    responseDelayMs: r.responseDelayMs,
    createdAt: r.createdAt,
  })),
);

export default async function ReceiversPage() {
  const { view: receivers } = await loadReceivers();
  return (
    <div className="space-y-5">
      <PageHeader
        title="Receivers"
        description="Endpoints of this console. Every request to an ingest URL is stored before it is answered, with its signature checked against the receiver's secrets."
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        {receivers.length === 0 ? (
          <EmptyState title="No receivers yet">
            Create one here, or create a subscription (Webhooks → New subscription), which makes a receiver for you. Then point a webhook at its ingest URL.
          </EmptyState>
        ) : (
          <Table label="Receivers">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Ingest URL</Th>
                <Th>Secrets</Th>
                <Th>Answers</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <TBody>
              {receivers.map((r) => (
                <tr key={r.id} className="hover:bg-slate-50" data-testid="receiver-row">
                  <Td>
                    <Link href={`/receivers/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                      {r.name}
                    </Link>
                  </Td>
                  <Td className="max-w-lg">
                    <CopyField value={r.ingestUrl} />
                  </Td>
                  <Td>{r.secretCount === 0 ? <span className="text-xs text-amber-700">none</span> : <span className="text-xs">{r.secretCount}</span>}</Td>
                  <Td>
                    <span className="inline-flex items-center gap-1">
                      <HttpCodeBadge code={r.responseStatus} />
                      {r.responseDelayMs ? <span className="text-xs text-slate-500">after {r.responseDelayMs} ms</span> : null}
                    </span>
                  </Td>
                  <Td>
                    <Timestamp value={r.createdAt} />
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
        <Card title="New receiver">
          <CreateReceiverForm />
        </Card>
      </div>
    </div>
  );
}
