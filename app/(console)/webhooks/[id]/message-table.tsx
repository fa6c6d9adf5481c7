'use client';

import type { TTimelineMessage } from '@/lib/console/timeline/timeline-types';
import { ExpandButton } from './expand-button';
import { MESSAGE_COLUMNS, type TCellContext, type TMessageListProps } from './message-columns';

// The timeline on wide screens: one row per message, the explanation under it, the opened
// message's attempts and receipts under that. Each message is its own <tbody>.

export function MessageTable({ messages, now, webhookDisabled, isOpen, onToggle, isFresh, renderDetail }: TMessageListProps) {
  const span = MESSAGE_COLUMNS.length + 1;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-surface">
      <table className="min-w-full text-sm" aria-label="Messages">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th className="w-8 px-2 py-2" aria-label="Expand" />
            {MESSAGE_COLUMNS.map((c) => (
              <th key={c.id} scope="col" className={`whitespace-nowrap px-3 py-2 ${c.align === 'right' ? 'text-right' : ''}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        {messages.map((m) => (
          <tbody key={m.id} className={`border-b border-slate-100 last:border-b-0 ${isFresh(m) ? 'bg-indigo-50/80' : ''} ${isOpen(m.id) ? 'bg-slate-50' : ''}`}>
            <MessageRow message={m} now={now} ctx={{ webhookDisabled }} open={isOpen(m.id)} onToggle={() => onToggle(m.id)} />
            <tr onClick={() => onToggle(m.id)} className="cursor-pointer">
              <td />
              <td colSpan={span - 1} className="px-3 pb-2 pt-0 text-xs text-slate-600" data-testid="explanation">
                {m.explanation}
              </td>
            </tr>
            {isOpen(m.id) ? (
              <tr>
                <td colSpan={span} className="px-3 pb-4 pt-1">
                  {renderDetail(m)}
                </td>
              </tr>
            ) : null}
          </tbody>
        ))}
      </table>
    </div>
  );
}

function MessageRow({
  message: m,
  now,
  ctx,
  open,
  onToggle,
}: {
  message: TTimelineMessage;
  now: string;
  ctx: TCellContext;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <tr
      data-testid="message-row"
      data-message-id={m.id}
      data-status={m.status}
      data-event-type={m.eventType}
      onClick={onToggle}
      className="cursor-pointer hover:bg-slate-50/80"
    >
      <td className="px-2 pt-2 text-center align-top">
        <ExpandButton messageId={m.id} open={open} onToggle={onToggle} />
      </td>
      {MESSAGE_COLUMNS.map((c) => (
        <td key={c.id} data-testid={c.testId} className={`px-3 pb-1 pt-2 align-top ${c.align === 'right' ? 'text-right' : ''}`}>
          {c.cell(m, now, ctx)}
        </td>
      ))}
    </tr>
  );
}
