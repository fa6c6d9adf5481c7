import type { TForward } from '@/lib/console/forward/forwards';
import { Badge, HttpCodeBadge } from './badge';
import { CollapsibleText } from './collapsible-text';
import { BodyViewer } from './body-viewer/body-viewer';
import { HeadersTable } from './headers-table';
import { Timestamp } from './timestamp';

// A receipt's forwards, newest first: where to, how, by whom, and the reply (status, time, headers
// and body) or the network error.

export function ForwardList({ forwards }: { forwards: TForward[] }) {
  if (!forwards.length) return <p className="text-xs text-slate-500">Not forwarded yet.</p>;
  return (
    <ol className="space-y-2" aria-label="Forwards">
      {forwards.map((f) => (
        <li
          key={f.id}
          className="min-w-0 rounded-md border border-slate-200 bg-surface px-3 py-2 text-xs"
          data-testid="forward"
          data-status={f.status}
          data-mode={f.mode}
        >
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Timestamp value={f.at} withMs />
            <Badge tone={f.mode === 'resign' ? 'violet' : 'gray'}>{f.mode === 'resign' ? 're-signed' : 'verbatim'}</Badge>
            {f.status ? <HttpCodeBadge code={f.status} /> : <Badge tone="red">no reply</Badge>}
            <span className="font-mono tabular-nums text-slate-600">{f.elapsedMs} ms</span>
            <span className="text-slate-500">by {f.actor}</span>
          </div>
          <p className="mt-1 break-all font-mono text-slate-700">
            {f.method} {f.url}
          </p>
          {f.error ? (
            <div className="mt-1.5">
              <CollapsibleText text={f.error} label="Error" tone="error" />
            </div>
          ) : (
            <details className="mt-1.5">
              <summary className="cursor-pointer text-slate-600">
                Reply: {f.responseSize} B{f.responseTruncated ? ' (the first 64 KiB kept)' : ''}, {f.responseHeaders.length} headers
              </summary>
              <div className="mt-1.5 space-y-1.5">
                <HeadersTable headers={f.responseHeaders} />
                {f.bodyPurgedAt ? (
                  <p className="text-slate-600">
                    Reply body purged <Timestamp value={f.bodyPurgedAt} /> with the receipt&apos;s body.
                  </p>
                ) : f.responseBody !== null ? (
                  <BodyViewer text={f.responseBody} maxHeight="max-h-64" label="Reply body" testId="reply-body" />
                ) : f.responseBodyBase64 ? (
                  <CollapsibleText text={`(not UTF-8; base64)\n${f.responseBodyBase64}`} label="Reply body" />
                ) : null}
              </div>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}
