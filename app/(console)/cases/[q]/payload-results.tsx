import Link from 'next/link';
import { Badge } from '@/components/console/badge';
import { Callout } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import type { TPayloadHit, TPayloadSearch } from '@/lib/console/search/payload-search-types';

// A payload search's results, listed as cases: one row per message (or lone request), where it
// matched, its webhooks and receipts, and the matched part (masked for viewers before it gets here).

const KIND = { 'payload-field': 'payload value', 'payload-text': 'payload text' } as const;
const day = (iso: string) => iso.slice(0, 10);

export function PayloadResults({ data }: { data: TPayloadSearch }) {
  const q = encodeURIComponent(data.query);
  return (
    <div className="space-y-5" data-testid="payload-search" data-kind={data.kind}>
      <PageHeader
        eyebrow={<span>Search · {KIND[data.kind]}</span>}
        title={<span className="break-all font-mono">{data.query}</span>}
        description={
          <span className="text-xs text-slate-500">
            Receipt bodies and message payloads from <Timestamp value={data.since} zone /> to <Timestamp value={data.until} zone />, newest first.
          </span>
        }
      />
      <form action={`/cases/${q}`} method="get" className="flex flex-wrap items-end gap-2 text-sm" aria-label="Search window">
        <label className="flex flex-col text-xs text-slate-600">
          Since
          <input type="date" name="since" defaultValue={day(data.since)} className="rounded-md border border-slate-300 px-2 py-1 text-sm" />
        </label>
        <label className="flex flex-col text-xs text-slate-600">
          Until
          <input type="date" name="until" defaultValue={day(data.until)} className="rounded-md border border-slate-300 px-2 py-1 text-sm" />
        </label>
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
          Search this window
        </button>
        <span className="text-xs text-slate-500">at most 31 days</span>
      </form>
      {data.notes.map((n) => (
        <Callout key={n} tone="info">
          {n}
        </Callout>
      ))}
      {data.partial && data.searchedUntil ? <SearchedBack data={data} searchedUntil={data.searchedUntil} /> : null}
      {data.hits.length === 0 ? (
        <EmptyState title="Nothing matches">
          {data.partial
            ? 'No receipt body or message payload in the part searched holds it.'
            : 'No receipt body or message payload in this window holds it. Widen the window or check the path.'}
        </EmptyState>
      ) : null}
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-surface">
        {data.hits.map((h) => (
          <HitRow key={h.messageId ?? `r${h.receipts[0]?.id}`} hit={h} />
        ))}
      </ul>
    </div>
  );
}

/** The search ran out of its time budget: how far back it looked, and a link that goes on from there (same window start). */
function SearchedBack({ data, searchedUntil }: { data: TPayloadSearch; searchedUntil: string }) {
  const further = `/cases/${encodeURIComponent(data.query)}?since=${encodeURIComponent(data.since)}&until=${encodeURIComponent(searchedUntil)}`;
  return (
    <div data-testid="payload-searched-back">
      <Callout tone="warning">
        Searched back to <Timestamp value={searchedUntil} withMs className="text-sm" zone /> within the search&apos;s time budget: older matches were not looked
        for yet.{' '}
        {data.more ? null : (
          <Link href={further} className="whitespace-nowrap font-medium underline underline-offset-2" data-testid="payload-search-further">
            Search further back
          </Link>
        )}
      </Callout>
    </div>
  );
}

function HitRow({ hit: h }: { hit: TPayloadHit }) {
  return (
    <li className="space-y-1.5 p-3" data-testid="payload-hit" data-message-id={h.messageId ?? ''} data-matched={h.matchedIn.join(' ')}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link href={h.href} className="font-medium text-indigo-700 hover:underline" data-testid="payload-hit-case">
          {h.grantId ? 'Grant case' : h.messageId ? 'Message case' : 'Request'}
        </Link>
        <span className="text-sm text-slate-900">{h.eventType ?? 'not an event'}</span>
        {h.messageId ? <code className="break-all font-mono text-xs text-slate-600">{h.messageId}</code> : null}
        <Timestamp value={h.at} className="text-xs" zone />
        {h.matchedIn.map((m) => (
          <Badge key={m} tone={m === 'receipt' ? 'violet' : 'blue'}>
            matched in {m === 'receipt' ? 'receipt body' : 'message payload'}
          </Badge>
        ))}
      </div>
      <pre
        className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 px-2 py-1 font-mono text-xs text-slate-700"
        data-testid="payload-hit-snippet"
      >
        {h.snippet}
      </pre>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        {h.webhooks.map((w) => (
          <Link key={w.id} href={`/webhooks/${encodeURIComponent(w.id)}`} className="break-all hover:underline">
            webhook <span className="font-mono">{w.id}</span>
            {w.url ? <span className="text-slate-500"> · {w.url}</span> : null}
          </Link>
        ))}
        {h.receipts.map((r) => (
          <Link key={r.id} href={`/receipts/${r.id}`} className="hover:underline">
            receipt #{r.id} at {r.receiverName} · {r.verdict} · {r.responseStatus}
          </Link>
        ))}
      </div>
    </li>
  );
}
