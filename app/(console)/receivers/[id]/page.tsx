import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { CopyField } from '@/components/console/copy-button';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { ExportLinks } from '@/components/console/export-links';
import { loadReceiverView } from '@/lib/console/receivers/receiver-view';
import { DeliveringWebhooks } from './delivering-webhooks';
import { ReceiptLog } from './receipt-log';
import { ReceiverSettingsForm } from './settings-form';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { z } from 'zod';
import { Button, Input } from '@/components/console/form';

export const metadata: Metadata = { title: 'Receiver' };

const ZReceiverSearch = z.object({
  q: z
    .string()
    .default('')
    .transform((q) => q.trim().slice(0, 200))
    .catch(''),
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
});

export default async function ReceiverPage({ params, searchParams }: TPageProps<{ id: string }>) {
  const { id } = await params;
  const { q, before } = pageQuery(await searchParams, ZReceiverSearch);
  const { view } = await loadReceiverView(id, { q, before });
  const { receiver, url, delivering, mismatches } = view;

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={
          <Link href="/receivers" className="hover:underline">
            Receivers
          </Link>
        }
        title={receiver.name}
        description={
          <span className="inline-flex max-w-full flex-wrap items-center gap-2">
            Ingest URL <CopyField value={url} label="Copy URL" />
          </span>
        }
        actions={<ExportLinks testId="receiver-export" base={`/api/receivers/${receiver.id}/export`} formats={[{ label: 'Download receipts (HAR)' }]} />}
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[24rem_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          <Card title="Settings">
            <ReceiverSettingsForm
              receiver={{
                id: receiver.id,
                name: receiver.name,
                secrets: receiver.secrets,
                responseStatus: receiver.responseStatus,
                responseBody: receiver.responseBody,
                responseDelayMs: receiver.responseDelayMs,
              }}
            />
          </Card>
          <DeliveringWebhooks webhooks={delivering.webhooks} listError={delivering.listError} mismatches={mismatches} />
        </div>

        <section className="min-w-0 space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h2 className="text-base font-semibold text-slate-900">Receipt log</h2>
            <Form action="" className="flex min-w-0 items-center gap-2">
              <label htmlFor="q" className="sr-only">
                Search body and headers
              </label>
              <Input id="q" name="q" defaultValue={q} placeholder="Search body and headers…" className="w-48 min-w-0 sm:w-64" />
              <Button type="submit">Search</Button>
              {q ? (
                <Link href="?" className="text-xs text-slate-600 hover:underline">
                  Clear
                </Link>
              ) : null}
            </Form>
          </div>
          <ReceiptLog
            key={`${q}|${before ?? ''}`}
            receiverId={receiver.id}
            ingestUrl={url}
            q={q}
            before={before}
            initial={view.receipts}
            readAt={view.readAt}
          />
        </section>
      </div>
    </div>
  );
}
