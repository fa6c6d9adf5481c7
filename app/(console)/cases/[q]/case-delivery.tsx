import Link from 'next/link';
import { Badge, EnabledBadge, HttpCodeBadge, MessageStatusBadge, ReconciliationBadge, SuspiciousBadge, VerdictBadge } from '@/components/console/badge';
import { Timestamp } from '@/components/console/timestamp';
import type { TCaseDelivery, TCaseForward } from '@/lib/console/investigation/case-types';
import type { TTimelineReceipt } from '@/lib/console/timeline/timeline-types';

// One message at one webhook inside a case: the verdict, the sentence, then both sides of the wire.

const SHOWN_ATTEMPTS = 3;

export function CaseDelivery({ messageId, delivery: d }: { messageId: string; delivery: TCaseDelivery }) {
  const w = d.webhook;
  return (
    <article
      className="min-w-0 rounded-lg border border-slate-200 bg-surface"
      data-testid="case-delivery"
      data-webhook-id={w.id}
      data-reconciliation={d.reconciliation}
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2.5">
        <Link href={`/webhooks/${encodeURIComponent(w.id)}`} className="min-w-0 truncate text-sm font-semibold text-indigo-700 hover:underline">
          {w.description || w.id}
        </Link>
        <EnabledBadge disabled={w.disabled} />
        <span className="flex-1" />
        <ReconciliationBadge value={d.reconciliation} />
      </header>
      <div className="space-y-3 px-4 py-3 text-sm">
        {d.story ? (
          <p className="rounded-md bg-amber-50 px-2 py-1 text-slate-800 ring-1 ring-amber-200" data-testid="delivery-story">
            {d.story}
          </p>
        ) : null}
        <p className="text-slate-800" data-testid="explanation">
          {d.explanation}
        </p>
        <p className="break-all font-mono text-xs text-slate-500">
          {w.url}
          {d.receiver ? (
            <>
              {' '}
              → receiver{' '}
              <Link href={`/receivers/${d.receiver.id}`} className="text-indigo-700 underline">
                {d.receiver.name}
              </Link>
            </>
          ) : (
            <span className="font-sans"> · not a receiver of this console</span>
          )}
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="min-w-0">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
              Sent {d.status ? <MessageStatusBadge status={d.status} /> : null}
            </h3>
            {d.status === null ? (
              <p className="text-xs text-slate-500">Not queued for this webhook.</p>
            ) : d.attempts.length === 0 ? (
              <p className="text-xs text-slate-500">
                No attempt yet
                {d.nextAttempt ? (
                  <>
                    {' '}
                    (due <Timestamp value={d.nextAttempt} zone />)
                  </>
                ) : null}
                .
              </p>
            ) : (
              <ul className="space-y-1">
                {d.attempts.length > SHOWN_ATTEMPTS ? <li className="text-xs text-slate-500">{d.attempts.length - SHOWN_ATTEMPTS} earlier attempts</li> : null}
                {d.attempts.slice(-SHOWN_ATTEMPTS).map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center gap-1.5 text-xs" data-testid="case-attempt">
                    <Timestamp value={a.timestamp} withMs zone />
                    <HttpCodeBadge code={a.responseStatusCode} />
                    <span className="font-mono text-slate-500">{a.responseDurationMs} ms</span>
                    {a.triggerType === 'manual' ? <span className="text-slate-500">manual</span> : null}
                    {a.responseGone ? (
                      <span className="basis-full text-slate-600" data-testid="response-gone">
                        {a.responseGone.note}
                      </span>
                    ) : a.response ? (
                      <span className="basis-full truncate font-mono text-slate-500" title={a.response}>
                        {a.response.slice(0, 200)}
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="min-w-0">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Received</h3>
            {d.receipts.length === 0 ? (
              <p className="text-xs text-slate-500">{d.receiver ? 'Nothing arrived at this receiver.' : 'Not observable here.'}</p>
            ) : (
              <ul className="space-y-1">
                {d.receipts.map((r) => (
                  <ReceiptLine key={r.id} receipt={r} />
                ))}
              </ul>
            )}
          </div>
        </div>
        {d.status !== null ? (
          <Link
            href={`/webhooks/${encodeURIComponent(w.id)}/messages/${encodeURIComponent(messageId)}`}
            className="inline-block text-xs font-medium text-indigo-700 hover:underline"
          >
            Attempts, responses and raw requests →
          </Link>
        ) : null}
      </div>
    </article>
  );
}

export function ReceiptLine({ receipt: r }: { receipt: TTimelineReceipt }) {
  return (
    <li
      className="flex flex-wrap items-center gap-1.5 text-xs"
      data-testid="case-receipt"
      data-verdict={r.verdict}
      data-suspicious={r.suspicious ? 'true' : undefined}
    >
      <Timestamp value={r.receivedAt} withMs zone />
      <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
      {r.suspicious ? <SuspiciousBadge /> : null}
      <span className="text-slate-500">answered</span>
      <HttpCodeBadge code={r.responseStatus} />
      <Link href={`/receipts/${r.id}`} className="text-indigo-700 hover:underline">
        #{r.id}
      </Link>
      {r.bodyGone ? (
        <span className="basis-full text-slate-600" data-testid="body-gone">
          {r.bodyGone.note}
        </span>
      ) : null}
    </li>
  );
}

/** One forward of a receipt of the message: when, how, where to, and the reply or its error. */
export function ForwardLine({ forward: f }: { forward: TCaseForward }) {
  return (
    <li className="flex flex-wrap items-center gap-1.5 text-xs" data-testid="case-forward" data-status={f.status}>
      <Timestamp value={f.at} withMs zone />
      <Link href={`/receipts/${f.receiptId}`} className="text-indigo-700 hover:underline">
        #{f.receiptId}
      </Link>
      <span className="text-slate-500">{f.mode === 'resign' ? 're-signed' : 'verbatim'} to</span>
      <span className="min-w-0 break-all font-mono text-slate-700">{f.url}</span>
      {f.status ? <HttpCodeBadge code={f.status} /> : <Badge tone="red">no reply</Badge>}
      <span className="font-mono text-slate-500">{f.elapsedMs} ms</span>
      <span className="text-slate-500">by {f.actor}</span>
      {f.error ? (
        <span className="basis-full truncate font-mono text-rose-700" title={f.error}>
          {f.error}
        </span>
      ) : null}
    </li>
  );
}
