import Form from 'next/form';
import Link from 'next/link';
import { MESSAGE_STATUSES } from '@/lib/constants';
import type { TTimelineFilters } from '@/lib/console/timeline/timeline-types';
import { Button, Select } from '@/components/console/form';
import { UtcTimeField } from '@/components/console/utc-time-field';

// The timeline's filters as a plain GET form (it works before hydration): status, event type and a
// time range. The time fields are UTC in one fixed format, as every time in the console is.

export function TimelineFilterForm({ webhookId, filters, eventTypes }: { webhookId: string; filters: TTimelineFilters; eventTypes: string[] }) {
  const filtered = filters.status || filters.eventType || filters.after || filters.before;
  return (
    <Form action="" className="flex min-w-0 flex-wrap items-end gap-2 text-sm" aria-label="Filter the timeline">
      <label className="flex flex-col text-xs text-slate-600">
        Status
        <Select name="status" defaultValue={filters.status ?? ''} className="mt-0.5 w-auto">
          <option value="">any</option>
          {MESSAGE_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </Select>
      </label>
      <label className="flex flex-col text-xs text-slate-600">
        Event type
        <Select name="eventType" defaultValue={filters.eventType ?? ''} className="mt-0.5 w-auto">
          <option value="">any</option>
          {eventTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </Select>
      </label>
      <UtcTimeField label="Created after (UTC)" name="after" value={filters.after} />
      <UtcTimeField label="Created before (UTC)" name="before" value={filters.before} />
      <Button type="submit">Filter</Button>
      {filtered ? (
        <Link href={`/webhooks/${encodeURIComponent(webhookId)}`} className="px-1 py-1 text-xs text-slate-600 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}
