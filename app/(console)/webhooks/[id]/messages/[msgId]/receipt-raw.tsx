import { BodyViewer } from '@/components/console/body-viewer/body-viewer';
import { HeadersTable } from '@/components/console/headers-table';
import { CopyCurl } from '@/components/console/copy-curl';
import type { TCurlCommand } from '@/lib/console/export/curl-command';
import type { TReceipt } from '@/lib/console/receivers';

// A stored request as it arrived: the request line, where from, every header and the raw body.

const decoder = new TextDecoder('utf-8');

export function ReceiptRaw({ receipt: r, curl }: { receipt: TReceipt; curl?: TCurlCommand }) {
  const body = r.body ? decoder.decode(r.body) : '';
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3 lg:grid-cols-2">
      <div className="min-w-0">
        <p className="mb-1 break-all text-slate-500">
          {r.method}{' '}
          <span className="font-mono">
            {r.path}
            {r.query ? `?${r.query.replace(/^\?/, '')}` : ''}
          </span>{' '}
          from {r.sourceIp || 'an unknown address'}
        </p>
        {curl ? (
          <p className="mb-1">
            <CopyCurl command={curl.command} utf8={curl.utf8} testId="receipt-curl" />
          </p>
        ) : null}
        <HeadersTable headers={r.headers} />
      </div>
      <div className="min-w-0">
        <p className="mb-1 text-slate-500">Raw body</p>
        {r.bodyGone ? (
          <p className="text-slate-600" data-testid="body-gone">
            {r.bodyGone.note}
          </p>
        ) : r.oversize ? (
          <p className="text-amber-800">Over the size limit: only the metadata was stored.</p>
        ) : (
          <BodyViewer text={body} maxHeight="max-h-64" label="Body received" />
        )}
      </div>
    </div>
  );
}
