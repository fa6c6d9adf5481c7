import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { getReceiver, ingestUrl, listReceipts } from '@/lib/console/receivers';
import { listTrackedWebhooks } from '@/lib/console/tracked-webhooks';
import { requireStaff } from '@/lib/console/session';
import { Badge, DuplicateBadge, HttpCodeBadge, VerdictBadge } from '@/components/console/badge';
import { Callout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { CodeBlock, HeadersTable } from '@/components/console/json-block';
import { Card, PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import { ReceiverSettingsForm } from './settings-form';

export const metadata: Metadata = { title: 'Receiver' };

const decoder = new TextDecoder('utf-8');

export default async function ReceiverPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaff();
  const { id } = await params;
  const sp = await searchParams;
  const q = typeof sp.q === 'string' ? sp.q.trim().slice(0, 200) : '';
  const beforeRaw = typeof sp.before === 'string' ? Number(sp.before) : NaN;
  const before = Number.isSafeInteger(beforeRaw) && beforeRaw > 0 ? beforeRaw : undefined;

  const receiver = await getReceiver(id);
  if (!receiver) {
    return (
      <div className="space-y-4">
        <PageHeader title="Receiver not found" />
        <Callout tone="warning" title="No such receiver">
          It may have been removed.{' '}
          <Link className="font-medium underline" href="/receivers">
            All receivers
          </Link>
        </Callout>
      </div>
    );
  }
  const [{ receipts, nextBefore }, tracked] = await Promise.all([
    listReceipts(receiver.id, { limit: 50, before, q: q || undefined }),
    listTrackedWebhooks(staff.environment),
  ]);
  // Receipts link to their message when exactly one tracked webhook delivers to this receiver.
  const webhooks = tracked.filter((t) => t.receiverId === receiver.id);
  const linkWebhook = webhooks.length === 1 ? webhooks[0].webhookId : null;
  const url = ingestUrl(receiver.slug);
  const qs = (extra: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ q: q || undefined, ...extra })) if (v !== undefined && v !== '') p.set(k, String(v));
    return `?${p}`;
  };

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
          <span className="inline-flex flex-wrap items-center gap-2">
            Ingest URL <CopyField value={url} label="Copy URL" />
          </span>
        }
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[24rem_minmax(0,1fr)]">
        <div className="space-y-4">
          <Card title="Settings">
            <ReceiverSettingsForm
              receiver={{ id: receiver.id, name: receiver.name, secrets: receiver.secrets, responseStatus: receiver.responseStatus, responseBody: receiver.responseBody, responseDelayMs: receiver.responseDelayMs }}
            />
          </Card>
          {webhooks.length ? (
            <Card title="Webhooks delivering here">
              <ul className="space-y-1 text-sm">
                {webhooks.map((w) => (
                  <li key={w.webhookId}>
                    <Link href={`/webhooks/${encodeURIComponent(w.webhookId)}`} className="font-mono text-xs text-indigo-700 hover:underline">
                      {w.webhookId}
                    </Link>{' '}
                    <span className="text-slate-500">{w.description}</span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>

        <section className="min-w-0 space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h2 className="text-base font-semibold text-slate-900">Receipt log</h2>
            <Form action="" className="flex items-center gap-2">
              <label htmlFor="q" className="sr-only">
                Search body and headers
              </label>
              <input
                id="q"
                name="q"
                defaultValue={q}
                placeholder="Search body and headers…"
                className="w-48 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm sm:w-64 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/20"
              />
              <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50">
                Search
              </button>
              {q ? (
                <Link href="?" className="text-xs text-slate-600 hover:underline">
                  Clear
                </Link>
              ) : null}
            </Form>
          </div>
          {receipts.length === 0 ? (
            q ? (
              <EmptyState title={`Nothing matches “${q}”`}>Search looks at the raw body and the header values. Try a message id, a tracking id or an e-mail address.</EmptyState>
            ) : (
              <EmptyState title="Nothing received yet">
                Point a webhook at <code className="font-mono">{url}</code> (or create a subscription with this receiver), then send a test event. Requests appear here as
                they arrive; reload to see new ones.
              </EmptyState>
            )
          ) : (
            <div className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white">
              {receipts.map((r) => {
                const body = r.body ? decoder.decode(r.body) : '';
                return (
                  <details key={r.id} className="group" data-testid="receipt-log-row" data-verdict={r.verdict}>
                    <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm hover:bg-slate-50">
                      <span className="w-12 font-mono text-xs text-slate-400">#{r.id}</span>
                      <Timestamp value={r.receivedAt} withMs />
                      <span className="font-mono text-xs font-semibold text-slate-700">{r.method}</span>
                      {r.messageId ? (
                        linkWebhook ? (
                          <Link
                            href={`/webhooks/${encodeURIComponent(linkWebhook)}/messages/${encodeURIComponent(r.messageId)}`}
                            className="font-mono text-xs text-indigo-700 hover:underline"
                          >
                            {r.messageId}
                          </Link>
                        ) : (
                          <code className="font-mono text-xs text-slate-600">{r.messageId}</code>
                        )
                      ) : (
                        <span className="text-xs text-slate-400">no message id</span>
                      )}
                      <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
                      {r.duplicate ? <DuplicateBadge /> : null}
                      {r.oversize ? <Badge tone="orange">oversize</Badge> : null}
                      <span className="ml-auto inline-flex items-center gap-2 text-xs text-slate-500">
                        {r.bodySize} B · answered <HttpCodeBadge code={r.responseStatus} />
                      </span>
                    </summary>
                    <div className="grid grid-cols-1 gap-3 border-t border-slate-100 bg-slate-50/60 p-3 xl:grid-cols-2">
                      <div className="min-w-0">
                        <p className="mb-1 text-xs text-slate-500">
                          {r.path}
                          {r.query ? `?${r.query.replace(/^\?/, '')}` : ''} from {r.sourceIp || 'unknown'}
                          {r.verdictReason ? ` — signature: ${r.verdictReason}` : ''}
                        </p>
                        <HeadersTable headers={r.headers} />
                      </div>
                      <div className="min-w-0">
                        <p className="mb-1 text-xs text-slate-500">Raw body</p>
                        {r.oversize ? <p className="text-xs text-amber-800">Over the 1 MiB limit: only the metadata was stored.</p> : <CodeBlock maxHeight="max-h-64" wrap>{body}</CodeBlock>}
                      </div>
                    </div>
                  </details>
                );
              })}
            </div>
          )}
          <div className="flex items-center justify-between text-sm">
            {before ? (
              <Link href={qs({})} className="font-medium text-indigo-700 hover:underline">
                ← Newest
              </Link>
            ) : (
              <span />
            )}
            {nextBefore ? (
              <Link href={qs({ before: nextBefore })} className="font-medium text-indigo-700 hover:underline">
                Older →
              </Link>
            ) : receipts.length ? (
              <span className="text-xs text-slate-400">End of log</span>
            ) : null}
          </div>
        </section>
      </div>
    </div>
  );
}
