'use client';

import { Pager } from '@/components/console/pager';
import { EmptyState } from '@/components/console/empty-state';
import { ReceiptLogRow } from './receipt-log-row';
import { useReceipts, type TReceiptPage } from './use-receipts';

// A receiver's receipt log, live: newest first, re-read every 2 s, searchable (the page's form sets
// `q`) and paged by `before` (the last id of the previous page).

export function ReceiptLog({
  receiverId,
  ingestUrl,
  q,
  before,
  initial,
  readAt,
}: {
  receiverId: string;
  ingestUrl: string;
  q: string;
  before?: number;
  initial: TReceiptPage;
  readAt: string;
}) {
  const { data, error } = useReceipts(receiverId, { q: q || undefined, pageToken: before ? String(before) : undefined }, initial, readAt);
  const href = (extra: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ q: q || undefined, ...extra })) if (v !== undefined && v !== '') p.set(k, String(v));
    return `?${p}`;
  };
  const receipts = data.results;
  return (
    <div className="space-y-3">
      <p role="status" className={`text-xs ${error ? 'text-amber-800' : 'text-slate-500'}`} data-testid="receipts-live">
        {error ? `Live updates paused: ${error.message} — retrying every 2 s.` : 'Live — new requests appear within 2 s.'}
      </p>
      {receipts.length === 0 ? (
        q ? (
          <EmptyState title={`Nothing matches “${q}”`}>
            Search looks at the raw body and the header values. Try a message id, a tracking id or an e-mail address.
          </EmptyState>
        ) : (
          <EmptyState title="Nothing received yet">
            Point a webhook at <code className="break-all font-mono">{ingestUrl}</code> (or create a subscription with this receiver), then send a test event.
            Requests appear here as they arrive.
          </EmptyState>
        )
      ) : (
        <div className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-surface">
          {receipts.map((r) => (
            <ReceiptLogRow key={r.id} receipt={r} />
          ))}
        </div>
      )}
      <Pager
        newest={before ? href({}) : null}
        older={data.nextPageToken ? href({ before: data.nextPageToken }) : null}
        end={receipts.length ? 'End of log' : null}
      />
    </div>
  );
}
