'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { CopyCurl } from '@/components/console/copy-curl';
import { DeliveryEvents } from '@/components/console/delivery-events';
import { ErrorCallout } from '@/components/console/callout';
import { formatUtc } from '@/lib/console/format';
import type { TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import { ResendButton } from './resend-button';
import { payloadGone, retriesStoppedNote } from '@/lib/console/retention/body-gone';
import { useMessageDetail } from './use-message-detail';

// An opened timeline row: every attempt and receipt of the message at this webhook, in the order
// they happened, read (and re-read every 2 s) while it is open. When the row (polled every second)
// shows a new attempt or receipt, it is read at once, so the two never disagree for long.

export function MessageDetail({ webhookId, message: m, canResend }: { webhookId: string; message: TTimelineMessage; canResend: boolean }) {
  const { data, error, refetch } = useMessageDetail(webhookId, m.id);
  const seen = useRef(`${m.status}|${m.attemptCount}|${m.receipts.length}`);
  useEffect(() => {
    const now = `${m.status}|${m.attemptCount}|${m.receipts.length}`;
    if (now === seen.current) return;
    seen.current = now;
    void refetch();
  }, [m.status, m.attemptCount, m.receipts.length, refetch]);
  const gone = data ? payloadGone(data.message.payload) : null;
  const messageHref = `/webhooks/${encodeURIComponent(webhookId)}/messages/${encodeURIComponent(m.id)}`;
  return (
    <div className="min-w-0 space-y-3 pt-2" data-testid="message-detail" data-message-id={m.id}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Link href={messageHref} className="text-xs font-medium text-indigo-700 hover:underline">
          Payload and raw requests →
        </Link>
        <Link href={`/cases/${encodeURIComponent(m.id)}`} className="text-xs font-medium text-indigo-700 hover:underline">
          Case of this message →
        </Link>
        <span className="flex-1" />
        {/* Its payload is gone (retries stopped for it, or erased or purged after it was delivered): there is nothing to re-send (the service would refuse with 409). */}
        {canResend && !m.retriesStopped && data && !gone ? <ResendButton webhookId={webhookId} messageId={m.id} /> : null}
        {m.retriesStopped || gone ? (
          <span className="text-xs text-slate-500" data-testid="resend-unavailable">
            {m.retriesStopped ? retriesStoppedNote(m.retriesStopped) : gone!.note}: nothing to re-send
          </span>
        ) : null}
      </div>
      {error ? <ErrorCallout error={error.info()} title="The attempts and receipts could not be loaded" /> : null}
      {data?.story ? (
        <p className="rounded-md bg-amber-50 px-2 py-1 text-xs text-slate-800 ring-1 ring-amber-200" data-testid="delivery-story">
          {data.story}
        </p>
      ) : null}
      {data ? (
        data.events.length ? (
          <DeliveryEvents
            events={data.events}
            messageId={m.id}
            receiver={data.receiver}
            attemptExtras={Object.fromEntries(
              Object.entries(data.curls?.attempts ?? {}).map(([id, c]) => [id, <CopyCurl key={id} testId="attempt-curl" command={c.command} utf8={c.utf8} />]),
            )}
            receiptExtras={Object.fromEntries(
              Object.entries(data.curls?.receipts ?? {}).map(([id, c]) => [id, <CopyCurl key={id} testId="receipt-curl" command={c.command} utf8={c.utf8} />]),
            )}
          />
        ) : (
          <p className="text-xs text-slate-500">
            No attempt yet{data.message.nextAttempt ? <> — the first is due at {formatUtc(data.message.nextAttempt)} UTC</> : null}, and nothing received.
          </p>
        )
      ) : error ? null : (
        <p className="text-xs text-slate-500" aria-busy>
          Loading attempts and receipts…
        </p>
      )}
    </div>
  );
}
