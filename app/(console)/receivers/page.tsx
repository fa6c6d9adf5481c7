import type { Metadata } from 'next';
import Link from 'next/link';
import { ingestUrl, listReceivers } from '@/lib/console/receivers';
import { requireStaff } from '@/lib/console/staff/session';
import { HttpCodeBadge } from '@/components/console/badge';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { CreateReceiverForm } from './create-receiver-form';

export const metadata: Metadata = { title: 'Receivers' };

export default async function ReceiversPage() {
  await requireStaff();
  const receivers = await listReceivers();
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
                    <CopyField value={ingestUrl(r.slug)} />
                  </Td>
                  <Td>{r.secrets.length === 0 ? <span className="text-xs text-amber-700">none</span> : <span className="text-xs">{r.secrets.length}</span>}</Td>
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
