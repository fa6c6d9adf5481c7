import type { Metadata } from 'next';
import Link from 'next/link';
import { listReceivers, receiptsForMessages, type TReceipt } from '@/lib/console/receivers';
import { AttemptStatusBadge, Badge, DuplicateBadge, HttpCodeBadge, MessageStatusBadge, VerdictBadge } from '@/components/console/badge';
import { ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { CodeBlock, JsonBlock, prettyBody, HeadersTable } from '@/components/console/json-block';
import { Card, DescriptionList, PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { attempt } from '@/app/(console)/_lib/errors';
import { mapLimit } from '@/lib/console/map-limit';

export const metadata: Metadata = { title: 'Message' };

const decoder = new TextDecoder('utf-8');

export default async function MessagePage({ params }: { params: Promise<{ id: string; msgId: string }> }) {
  const { api } = await staffApi();
  const { id, msgId } = await params;

  const [message, attemptList, receiptMap, receivers] = await Promise.all([
    attempt(() => api.getMessage(id, msgId)),
    attempt(() => api.listAttempts(id, msgId, { pageLimit: 100 })),
    receiptsForMessages([msgId]),
    listReceivers(),
  ]);
  // Each attempt with its response body (only Get attempt carries it).
  const attempts = attemptList.data
    ? await mapLimit(attemptList.data.results, 6, async (a) => {
        const full = await attempt(() => api.getAttempt(id, msgId, a.id));
        return { ...a, response: full.data?.response, responseError: full.error };
      })
    : [];
  const receipts = receiptMap.get(msgId) ?? [];
  const receiverNames = new Map(receivers.map((r) => [r.id, r.name]));

  const breadcrumb = (
    <span>
      <Link href="/webhooks" className="hover:underline">
        Webhooks
      </Link>{' '}
      /{' '}
      <Link href={`/webhooks/${encodeURIComponent(id)}`} className="break-all font-mono hover:underline">
        {id}
      </Link>{' '}
      / <span className="break-all font-mono">{msgId}</span>
    </span>
  );

  if (message.error) {
    return (
      <div className="space-y-4">
        <PageHeader eyebrow={breadcrumb} title="Message" />
        <ErrorCallout error={message.error} title={message.error.status === 404 ? 'No such message for this webhook' : 'The message could not be loaded'} />
      </div>
    );
  }
  const m = message.data;

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={breadcrumb}
        title={
          <span className="inline-flex items-center gap-3">
            {m.eventType} <MessageStatusBadge status={m.status} />
          </span>
        }
        description={<CopyField value={m.id} />}
        actions={
          <Link href={`/webhooks/${encodeURIComponent(id)}`} className="text-sm font-medium text-indigo-700 hover:underline">
            ← Timeline
          </Link>
        }
      />

      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card title="Message">
          <DescriptionList
            items={[
              ['Created', <Timestamp key="t" value={m.timestamp} withMs />],
              ['Status', <MessageStatusBadge key="s" status={m.status} />],
              ['Attempts', m.attemptCount],
              ['Next attempt', <Timestamp key="n" value={m.nextAttempt} withMs />],
            ]}
          />
        </Card>
        <Card title="Payload">
          <JsonBlock value={m.payload ?? null} label="Payload" />
        </Card>
      </div>

      <section className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Attempts ({attempts.length})</h2>
        {attemptList.error ? <ErrorCallout error={attemptList.error} title="The attempts could not be loaded" /> : null}
        {attemptList.data && attempts.length === 0 ? <EmptyState title="No attempt yet">The worker picks the message up within a second; reload in a moment.</EmptyState> : null}
        {attempts.map((a) => (
          <details key={a.id} className="group rounded-lg border border-slate-200 bg-white" data-testid="attempt-detail" open={attempts.length <= 3}>
            <summary className="flex cursor-pointer flex-wrap items-center gap-3 px-4 py-2 text-sm">
              <Timestamp value={a.timestamp} withMs />
              <AttemptStatusBadge status={a.status} />
              <HttpCodeBadge code={a.responseStatusCode} />
              <span className="font-mono text-xs text-slate-600">{a.responseDurationMs} ms</span>
              <Badge>{a.triggerType}</Badge>
              <code className="truncate font-mono text-xs text-slate-500">{a.url}</code>
              <code className="ml-auto break-all font-mono text-xs text-slate-400">{a.id}</code>
            </summary>
            <div className="border-t border-slate-100 px-4 py-3">
              <p className="mb-1 text-xs font-medium text-slate-500">{a.responseStatusCode === 0 ? 'Error (no response came)' : 'Response body'}</p>
              {a.responseError ? <ErrorCallout error={a.responseError} /> : <CodeBlock maxHeight="max-h-64">{prettyBody(a.response ?? '')}</CodeBlock>}
            </div>
          </details>
        ))}
      </section>

      <section className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Receipts ({receipts.length})</h2>
        {receipts.length === 0 ? (
          <EmptyState title="Nothing with this message id arrived at this console">
            If the webhook points at one of this console&apos;s receivers, compare the attempts above: a network error or timeout means the request never reached it.
          </EmptyState>
        ) : null}
        {receipts.map((r) => (
          <ReceiptCard key={r.id} receipt={r} receiverName={receiverNames.get(r.receiverId)} />
        ))}
      </section>
    </div>
  );
}

function ReceiptCard({ receipt: r, receiverName }: { receipt: TReceipt; receiverName?: string }) {
  const body = r.body ? decoder.decode(r.body) : '';
  return (
    <div className="rounded-lg border border-slate-200 bg-white" data-testid="receipt-detail" data-verdict={r.verdict}>
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-2 text-sm">
        <Timestamp value={r.receivedAt} withMs />
        <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
        {r.duplicate ? <DuplicateBadge /> : null}
        <span className="text-xs text-slate-600">
          {r.method} <span className="font-mono">{r.path}{r.query ? `?${r.query.replace(/^\?/, '')}` : ''}</span>
        </span>
        <span className="text-xs text-slate-500">
          answered <HttpCodeBadge code={r.responseStatus} />
        </span>
        <Link href={`/receivers/${r.receiverId}`} className="ml-auto text-xs font-medium text-indigo-700 hover:underline">
          {receiverName ?? 'receiver'} · #{r.id}
        </Link>
      </div>
      {r.verdictReason ? <p className="px-4 pt-2 text-xs text-slate-600">Signature: {r.verdictReason}</p> : null}
      <div className="grid grid-cols-1 gap-3 p-4 lg:grid-cols-2">
        <div>
          <p className="mb-1 text-xs font-medium text-slate-500">Headers</p>
          <HeadersTable headers={r.headers} />
          <p className="mt-1 text-xs text-slate-500">
            {r.bodySize} bytes from {r.sourceIp || 'unknown address'}
          </p>
        </div>
        <div>
          <p className="mb-1 text-xs font-medium text-slate-500">Raw body</p>
          {r.oversize ? <p className="text-xs text-amber-800">Over the size limit: only the metadata was stored.</p> : <CodeBlock maxHeight="max-h-64" wrap label="Raw body">{body}</CodeBlock>}
        </div>
      </div>
    </div>
  );
}
