import Link from 'next/link';
import type { TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import { timelineSearch } from './use-timeline';

// Newest ← → Older, keeping the filters. The API pages by an opaque token, so there is no "previous".

export function TimelinePager({ filters, nextPageToken }: { filters: TTimelineFilters; nextPageToken: string | null }) {
  if (!filters.pageToken && !nextPageToken) return null;
  return (
    <div className="flex items-center justify-between text-sm">
      {filters.pageToken ? (
        <Link href={`?${timelineSearch(filters, { pageToken: null })}`} className="font-medium text-indigo-700 hover:underline">
          ← Newest
        </Link>
      ) : (
        <span />
      )}
      {nextPageToken ? (
        <Link href={`?${timelineSearch(filters, { pageToken: nextPageToken })}`} className="font-medium text-indigo-700 hover:underline" data-testid="older-page">
          Older →
        </Link>
      ) : (
        <span className="text-xs text-slate-400">End of history</span>
      )}
    </div>
  );
}
