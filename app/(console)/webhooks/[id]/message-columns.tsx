import Link from 'next/link';
import type { ReactNode } from 'react';
import { MessageStatusBadge, ReconciliationBadge, VerdictBadge } from '@/components/console/badge';
import { RelativeTime } from '@/components/console/relative-time';
import { Timestamp } from '@/components/console/timestamp';
import type { TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import { verdictRuns } from '@/lib/console/timeline/verdict-runs';
import { plural } from '@/lib/console/format';

// The timeline's columns, declared once: the desktop table renders them as cells, the narrow-screen
// cards as labelled fields. `now` is when the page was read (relative times count from it).

/** What a cell knows beyond its message: whether the webhook is disabled (its waiting messages will not be attempted). */
export type TCellContext = { webhookDisabled: boolean };

export type TMessageColumn = {
  id: 'eventType' | 'id' | 'created' | 'status' | 'attempts' | 'nextAttempt' | 'received' | 'reconciliation';
  header: string;
  align?: 'right';
  testId?: string;
  cell: (m: TTimelineMessage, now: string, ctx: TCellContext) => ReactNode;
};

/** What the table and the cards are given: the messages, their open/fresh state and the detail of an open one. */
export type TMessageListProps = {
  messages: TTimelineMessage[];
  now: string;
  /** The webhook is disabled: no message of it will be attempted. */
  webhookDisabled: boolean;
  isOpen: (id: string) => boolean;
  onToggle: (id: string) => void;
  isFresh: (m: TTimelineMessage) => boolean;
  renderDetail: (m: TTimelineMessage) => ReactNode;
};

export const MESSAGE_COLUMNS: TMessageColumn[] = [
  { id: 'eventType', header: 'Event type', cell: (m) => <span className="font-medium text-slate-900">{m.eventType}</span> },
  {
    id: 'id',
    header: 'Message',
    cell: (m) => (
      <Link
        href={`/cases/${encodeURIComponent(m.id)}`}
        onClick={(e) => e.stopPropagation()}
        title="Open this message's case"
        className="break-all font-mono text-xs text-indigo-700 hover:underline"
      >
        {m.id}
      </Link>
    ),
  },
  { id: 'created', header: 'Created (UTC)', cell: (m) => <Timestamp value={m.timestamp} /> },
  { id: 'status', header: 'Status', cell: (m) => <MessageStatusBadge status={m.status} /> },
  {
    id: 'attempts',
    header: 'Attempts',
    align: 'right',
    testId: 'attempt-count',
    cell: (m) => <span className="font-mono text-xs tabular-nums">{m.attemptCount}</span>,
  },
  {
    id: 'nextAttempt',
    header: 'Next attempt',
    testId: 'next-attempt',
    cell: (m, now, ctx) => <NextAttempt message={m} now={now} webhookDisabled={ctx.webhookDisabled} />,
  },
  { id: 'received', header: 'Received', cell: (m) => <ReceivedVerdicts message={m} /> },
  { id: 'reconciliation', header: 'Reconciliation', testId: 'reconciliation', cell: (m) => <ReconciliationBadge value={m.reconciliation} /> },
];

export const columnOf = (id: TMessageColumn['id']) => MESSAGE_COLUMNS.find((c) => c.id === id)!;

/** When the next attempt is due; none while the webhook is disabled (when due, the service ends the message failed, unattempted). */
function NextAttempt({ message: m, now, webhookDisabled }: { message: TTimelineMessage; now: string; webhookDisabled: boolean }) {
  if (webhookDisabled && (m.status === 'pending' || m.nextAttempt)) {
    return (
      <span
        className="whitespace-nowrap text-xs text-slate-500"
        title="The webhook is disabled: its waiting messages are not attempted, and each ends failed when its retry falls due unless the webhook is enabled first."
      >
        none: webhook disabled
      </span>
    );
  }
  return <RelativeTime value={m.nextAttempt} now={now} />;
}

/** Every verdict of the arrivals at this webhook's receiver, in arrival order (repeats counted): a failed copy is never hidden behind a valid one. */
function ReceivedVerdicts({ message: m }: { message: TTimelineMessage }) {
  if (!m.receipts.length) return <span className="text-xs text-slate-500">nothing</span>;
  return (
    <span
      className="inline-flex flex-wrap items-center gap-1"
      data-testid="received"
      title={`${plural(m.receipts.length, 'request')} with this message id arrived`}
    >
      {verdictRuns(m.receipts).map((run) => (
        <span key={run.firstId} className="inline-flex items-center gap-0.5" data-testid="received-verdict" data-verdict={run.verdict} data-count={run.count}>
          <VerdictBadge verdict={run.verdict} reason={run.reason} />
          {run.count > 1 ? <span className="text-xs text-slate-500">×{run.count}</span> : null}
        </span>
      ))}
    </span>
  );
}
