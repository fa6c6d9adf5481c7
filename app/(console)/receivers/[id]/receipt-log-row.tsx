'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Badge, DuplicateBadge, HttpCodeBadge, VerdictBadge } from '@/components/console/badge';
import { BodyViewer } from '@/components/console/body-viewer/body-viewer';
import { HeadersTable } from '@/components/console/headers-table';
import { Timestamp } from '@/components/console/timestamp';
import type { TReceiptJson } from './use-receipts';

// One stored request in a receiver's log: a summary line whose button opens its headers and raw body.
// Its message id leads to the message's case.

export function ReceiptLogRow({ receipt: r }: { receipt: TReceiptJson }) {
  // A disclosure button beside the row's links (links inside a <summary> would be nested controls).
  const [open, setOpen] = useState(false);
  const detailId = `receipt-${r.id}-detail`;
  return (
    <div data-testid="receipt-log-row" data-verdict={r.verdict} data-open={open}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm hover:bg-slate-50">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={detailId}
          onClick={() => setOpen(!open)}
          className="inline-flex min-h-6 items-center gap-2 rounded text-left"
        >
          <span aria-hidden className={`inline-block text-slate-500 transition-transform ${open ? 'rotate-90' : ''}`}>
            ▸
          </span>
          <Timestamp value={r.receivedAt} withMs />
          <span className="font-mono text-xs font-semibold text-slate-700">{r.method}</span>
          <span className="sr-only">: headers and body of receipt #{r.id}</span>
        </button>
        <Link
          href={`/receipts/${r.id}`}
          className="inline-flex min-h-6 min-w-12 items-center font-mono text-xs text-slate-600 hover:text-indigo-700 hover:underline"
          title="The raw request and its signature check"
        >
          #{r.id}
        </Link>
        {r.messageId ? (
          <Link
            href={`/cases/${encodeURIComponent(r.messageId)}`}
            className="inline-flex min-h-6 items-center break-all font-mono text-xs text-indigo-700 hover:underline"
            title="Open this message's case"
          >
            {r.messageId}
          </Link>
        ) : (
          <span className="text-xs text-slate-500">no message id</span>
        )}
        <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
        {r.duplicate ? <DuplicateBadge /> : null}
        {r.oversize ? <Badge tone="orange">oversize</Badge> : null}
        <span className="ml-auto inline-flex items-center gap-2 text-xs text-slate-500">
          {r.bodySize} B · answered <HttpCodeBadge code={r.responseStatus} />
        </span>
      </div>
      <div id={detailId} hidden={!open} className="grid grid-cols-1 gap-3 border-t border-slate-100 bg-slate-50/60 p-3 xl:grid-cols-2">
        <div className="min-w-0">
          <p className="mb-1 break-all text-xs text-slate-500">
            {r.path}
            {r.query ? `?${r.query.replace(/^\?/, '')}` : ''} from {r.sourceIp || 'unknown'}
            {r.verdictReason ? ` — signature: ${r.verdictReason}` : ''}
          </p>
          <HeadersTable headers={r.headers} />
        </div>
        <div className="min-w-0">
          <p className="mb-1 text-xs text-slate-500">Raw body</p>
          {r.bodyGone ? (
            <p className="text-xs text-slate-600" data-testid="body-gone">
              {r.bodyGone.note}
            </p>
          ) : r.oversize ? (
            <p className="text-xs text-amber-800">Over the 1 MiB limit: only the metadata was stored.</p>
          ) : r.body !== null && r.bodyText === null ? (
            <p className="text-xs text-slate-600">Not UTF-8 text ({r.bodySize} bytes); open the receipt to see it.</p>
          ) : (
            <BodyViewer text={r.bodyText ?? ''} maxHeight="max-h-64" label="Body received" />
          )}
        </div>
      </div>
    </div>
  );
}
