'use client';

import { useMemo, useState } from 'react';
import { EmptyState } from '@/components/console/empty-state';
import { useMediaQuery, WIDE_QUERY } from '@/components/console/use-media-query';
import type { TTimeline, TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import type { TMessageListProps } from './message-columns';
import { LiveIndicator } from './live-indicator';
import { useLivePaused } from '@/components/console/live-pause';
import { MessageCards } from './message-cards';
import { MessageDetail } from './message-detail';
import { MessageTable } from './message-table';
import { Pager } from '@/components/console/pager';
import { timelineSearch, useTimeline } from './use-timeline';

// A webhook's timeline, live: a table on wide screens, cards on narrow ones (both rendered, CSS
// shows one), with the pager under them. An opened message mounts only in the one on screen.

const FRESH_MS = 5000;

export function Timeline({ webhookId, filters, initial }: { webhookId: string; filters: TTimelineFilters; initial: TTimeline }) {
  const { data, error, isFetching, dataUpdatedAt } = useTimeline(webhookId, filters, initial);
  const paused = useLivePaused();
  const wide = useMediaQuery(WIDE_QUERY, true);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  // Messages that arrive while the page is open are highlighted for a few seconds.
  const initialIds = useMemo(() => new Set(initial.messages.map((m) => m.id)), [initial]);
  const fetchedAt = Date.parse(data.fetchedAt);
  const canResend = data.webhook !== null;

  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const list = (forWide: boolean): TMessageListProps => ({
    messages: data.messages,
    now: data.fetchedAt,
    webhookDisabled: data.webhook?.disabled ?? false,
    isOpen: (id) => open.has(id),
    onToggle: toggle,
    isFresh: (m) => !initialIds.has(m.id) && fetchedAt - Date.parse(m.timestamp) < FRESH_MS,
    renderDetail: (m) => (wide === forWide ? <MessageDetail webhookId={webhookId} message={m} canResend={canResend} /> : null),
  });
  const filtered = !!(filters.status || filters.eventType || filters.after || filters.before);

  return (
    <div className="space-y-3">
      <LiveIndicator fetching={isFetching} updatedAt={dataUpdatedAt} error={error} paused={paused} />
      {data.messages.length === 0 ? (
        filtered ? (
          <EmptyState title="No messages match these filters">Clear the filters to see every message of this webhook.</EmptyState>
        ) : (
          <EmptyState title="No messages yet">
            Press <strong>Send test event</strong> above to fire a <code className="font-mono">grant.succeeded</code> example, or give through a Connect&apos;s
            donor page (<code className="font-mono">/connect/&#123;cid&#125;</code>). New messages appear here within a second or two.
          </EmptyState>
        )
      ) : (
        <>
          <div className="hidden md:block">
            <MessageTable {...list(true)} />
          </div>
          <div className="md:hidden">
            <MessageCards {...list(false)} />
          </div>
        </>
      )}
      <Pager
        newest={filters.pageToken ? `?${timelineSearch(filters, { pageToken: null })}` : null}
        older={data.nextPageToken ? `?${timelineSearch(filters, { pageToken: data.nextPageToken })}` : null}
        end={filters.pageToken ? 'End of history' : null}
        testId="older-page"
      />
    </div>
  );
}
