import Link from 'next/link';
import type { ReactNode } from 'react';
import type { TDeliveryEvent, TReceiverRef, TTimelineAttempt, TTimelineReceipt } from '@/lib/console/timeline/timeline-types';
import { AttemptStatusBadge, Badge, DuplicateBadge, HttpCodeBadge, SuspiciousBadge, VerdictBadge } from './badge';
import { CollapsibleText } from './collapsible-text';
import { BodyViewer } from './body-viewer/body-viewer';
import { Timestamp } from './timestamp';

// What the API sent and what arrived, as one list in the order it happened: each attempt with its
// answer (or the network error) inline, each receipt with its signature verdict and what the
// receiver answered. Pure: the expanded timeline row and the message page both render it.

type TTestIds = { attempt: string; receipt: string };
const ROW_IDS: TTestIds = { attempt: 'attempt-row', receipt: 'receipt-row' };

export function DeliveryEvents({
  events,
  messageId,
  receiver,
  testIds = ROW_IDS,
  receiptExtras,
  attemptExtras,
}: {
  events: TDeliveryEvent[];
  messageId: string;
  /** The webhook's receiver (receipts at another one, after a URL change, show their id). */
  receiver: TReceiverRef | null;
  testIds?: TTestIds;
  /** More to show under a receipt, by its id (the message page adds its headers and raw body). */
  receiptExtras?: Record<number, ReactNode>;
  /** More to show on an attempt's line, by its id (the message page's "Copy as cURL"). */
  attemptExtras?: Record<string, ReactNode>;
}) {
  return (
    <ol className="space-y-2" aria-label="Attempts and receipts">
      {events.map((e) =>
        e.kind === 'attempt' ? (
          <AttemptItem key={`a${e.attempt.id}`} attempt={e.attempt} testId={testIds.attempt} extra={attemptExtras?.[e.attempt.id]} />
        ) : (
          <ReceiptItem
            key={`r${e.receipt.id}`}
            receipt={e.receipt}
            messageId={messageId}
            receiver={receiver}
            testId={testIds.receipt}
            extra={receiptExtras?.[e.receipt.id]}
          />
        ),
      )}
    </ol>
  );
}

function Item({ side, children, ...data }: { side: 'sent' | 'received'; children: ReactNode } & Record<`data-${string}`, string | number>) {
  return (
    <li
      className={`min-w-0 rounded-md border bg-surface px-3 py-2 text-xs ${side === 'sent' ? 'border-slate-200' : 'border-l-4 border-sky-200 border-l-sky-400'}`}
      {...data}
    >
      {children}
    </li>
  );
}

function AttemptItem({ attempt: a, testId, extra }: { attempt: TTimelineAttempt; testId: string; extra?: ReactNode }) {
  const noResponse = a.responseStatusCode === 0;
  return (
    <Item side="sent" data-testid={testId} data-status={a.status} data-code={a.responseStatusCode}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-semibold text-slate-700">Sent</span>
        <Timestamp value={a.timestamp} withMs />
        <AttemptStatusBadge status={a.status} />
        <HttpCodeBadge code={a.responseStatusCode} />
        <span className="font-mono tabular-nums text-slate-600">{a.responseDurationMs} ms</span>
        <Badge tone={a.triggerType === 'manual' ? 'blue' : 'gray'}>{a.triggerType}</Badge>
        {extra}
        <code className="ml-auto break-all font-mono text-[11px] text-slate-500">{a.id}</code>
      </div>
      {a.responseGone ? (
        <p className="mt-1 text-slate-600" data-testid="response-gone">
          {a.responseGone.note}
        </p>
      ) : a.response === '' ? (
        <p className="mt-1 text-slate-500">{noResponse ? 'No response, no error recorded.' : 'Empty response body.'}</p>
      ) : a.response !== undefined ? (
        <div className="mt-1.5">
          <p className="mb-0.5 text-slate-500">{noResponse ? 'No response — the error:' : 'Response body'}</p>
          {noResponse ? (
            <CollapsibleText text={a.response} label="Error" tone="error" />
          ) : (
            <BodyViewer text={a.response} maxHeight="max-h-64" label="Response body" testId="response-body" />
          )}
        </div>
      ) : null}
    </Item>
  );
}

function ReceiptItem({
  receipt: r,
  messageId,
  receiver,
  testId,
  extra,
}: {
  receipt: TTimelineReceipt;
  messageId: string;
  receiver: TReceiverRef | null;
  testId: string;
  extra?: ReactNode;
}) {
  const receiverName = receiver?.id === r.receiverId ? receiver.name : `receiver ${r.receiverId.slice(0, 8)}`;
  return (
    <Item side="received" data-testid={testId} data-verdict={r.verdict}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-semibold text-sky-800">Received</span>
        <Timestamp value={r.receivedAt} withMs />
        <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
        {r.duplicate ? <DuplicateBadge /> : null}
        {r.suspicious ? <SuspiciousBadge /> : null}
        <span className="inline-flex items-center gap-1 text-slate-600">
          answered <HttpCodeBadge code={r.responseStatus} />
        </span>
        <span className="text-slate-500">{r.bodySize} B</span>
        <span className="ml-auto inline-flex flex-wrap items-center gap-x-2">
          {/* At least 24 px high and wide (WCAG 2.5.8): a long receiver name wraps onto the line of the short "#1". */}
          <Link href={`/receivers/${encodeURIComponent(r.receiverId)}`} className="inline-flex min-h-6 items-center text-indigo-700 hover:underline">
            {receiverName}
          </Link>
          <Link
            href={`/receipts/${r.id}`}
            className="inline-flex min-h-6 min-w-6 items-center justify-center font-mono text-indigo-700 hover:underline"
            title="The raw request and its signature check"
          >
            #{r.id}
          </Link>
          <Link href={`/cases/${encodeURIComponent(messageId)}`} className="inline-flex min-h-6 items-center text-indigo-700 hover:underline">
            case
          </Link>
        </span>
      </div>
      {r.verdictReason && r.verdict !== 'valid' ? <p className="mt-1 text-slate-600">Signature: {r.verdictReason}</p> : null}
      {r.bodyGone && !extra ? (
        <p className="mt-1 text-slate-600" data-testid="body-gone">
          {r.bodyGone.note}
        </p>
      ) : null}
      {extra ? <div className="mt-2">{extra}</div> : null}
    </Item>
  );
}
