'use client';

import { columnOf, MESSAGE_COLUMNS, type TMessageListProps } from './message-columns';
import { ExpandButton } from './expand-button';

// The timeline on narrow screens: a card per message with the same columns as labelled fields,
// the explanation in full, and the opened message's attempts and receipts inside the card.

const HEAD = new Set(['eventType', 'reconciliation']);
const FIELDS = MESSAGE_COLUMNS.filter((c) => !HEAD.has(c.id));

export function MessageCards({ messages, now, webhookDisabled, isOpen, onToggle, isFresh, renderDetail }: TMessageListProps) {
  const ctx = { webhookDisabled };
  return (
    <ul className="space-y-2" aria-label="Messages">
      {messages.map((m) => (
        <li
          key={m.id}
          data-testid="message-card"
          data-message-id={m.id}
          data-status={m.status}
          data-event-type={m.eventType}
          className={`min-w-0 rounded-lg border border-slate-200 p-3 ${isFresh(m) ? 'bg-indigo-50/80' : 'bg-surface'}`}
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            {columnOf('eventType').cell(m, now, ctx)}
            <span data-testid="reconciliation">{columnOf('reconciliation').cell(m, now, ctx)}</span>
          </div>
          <p className="mt-1.5 text-sm text-slate-700" data-testid="explanation">
            {m.explanation}
          </p>
          <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
            {FIELDS.map((c) => (
              <div key={c.id} className="contents">
                <dt className="text-slate-500">{c.header}</dt>
                <dd className="min-w-0" data-testid={c.testId}>
                  {c.cell(m, now, ctx)}
                </dd>
              </div>
            ))}
          </dl>
          <div className="mt-2 border-t border-slate-100 pt-2">
            <ExpandButton
              messageId={m.id}
              open={isOpen(m.id)}
              onToggle={() => onToggle(m.id)}
              label={isOpen(m.id) ? 'Hide attempts and receipts' : 'Attempts and receipts'}
            />
            {isOpen(m.id) ? renderDetail(m) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
