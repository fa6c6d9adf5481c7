'use client';

import Link from 'next/link';
import { Fragment, useMemo, useState, useTransition } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AttemptStatusBadge, DuplicateBadge, HttpCodeBadge, MessageStatusBadge, ReconciliationBadge, VerdictBadge } from '@/components/console/badge';
import { ErrorCallout, type TErrorInfo } from '@/components/console/callout';
import { EmptyState } from '@/components/console/empty-state';
import { Button } from '@/components/console/form';
import { Timestamp, formatUtc } from '@/components/console/timestamp';
import type { TTimeline, TTimelineFilters, TTimelineMessage } from '@/lib/console/timeline';
import { resendMessageAction } from './actions';

const POLL_MS = 1000;

class TimelineFetchError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

async function fetchTimeline(webhookId: string, filters: TTimelineFilters): Promise<TTimeline> {
  const qs = new URLSearchParams(Object.entries(filters).filter(([, v]) => v) as [string, string][]);
  const res = await fetch(`/api/webhooks/${encodeURIComponent(webhookId)}/timeline?${qs}`, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) {
    let detail = `HTTP ${res.status}`;
    let requestId: string | null = res.headers.get('x-request-id');
    try {
      const body = await res.json();
      detail = body.detail ?? detail;
      requestId = body.upstreamRequestId ?? requestId;
    } catch {
      /* not JSON */
    }
    throw new TimelineFetchError(detail, res.status, requestId);
  }
  return res.json();
}

export const timelineKey = (webhookId: string) => ['timeline', webhookId] as const;

export function Timeline({
  webhookId,
  filters,
  initial,
  receiverNames,
  canResend,
}: {
  webhookId: string;
  filters: TTimelineFilters;
  initial: TTimeline;
  receiverNames: Record<string, string>;
  canResend: boolean;
}) {
  const { data, error, isFetching, dataUpdatedAt } = useQuery({
    queryKey: [...timelineKey(webhookId), filters.status ?? '', filters.eventType ?? '', filters.pageToken ?? ''],
    queryFn: () => fetchTimeline(webhookId, filters),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.fetchedAt),
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
  });
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [resendSupported, setResendSupported] = useState(canResend);

  // Messages that arrive while the page is open are highlighted for a few seconds.
  const initialIds = useMemo(() => new Set(initial.messages.map((m) => m.id)), [initial]);
  const fetchedAt = Date.parse(data.fetchedAt);

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const fetchError = error as TimelineFetchError | null;
  return (
    <div className="space-y-3">
      <LiveIndicator fetching={isFetching} updatedAt={dataUpdatedAt} error={fetchError} />
      {data.messages.length === 0 ? (
        filters.status || filters.eventType ? (
          <EmptyState title="No messages match these filters">Clear the filters to see every message of this webhook.</EmptyState>
        ) : (
          <EmptyState title="No messages yet">
            Press <strong>Send test event</strong> above to fire a <code className="font-mono">grant.succeeded</code> example, or give through a Connect&apos;s donor page
            (<code className="font-mono">/connect/&#123;cid&#125;</code>). New messages appear here within a second or two.
          </EmptyState>
        )
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-sm" aria-label="Messages">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th className="w-8 px-2 py-2" aria-label="Expand" />
                <th className="px-3 py-2">Event type</th>
                <th className="px-3 py-2">Message</th>
                <th className="px-3 py-2">Created (UTC)</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2 text-right">Attempts</th>
                <th className="px-3 py-2">Next attempt</th>
                <th className="px-3 py-2">Received</th>
                <th className="px-3 py-2">Reconciliation</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.messages.map((m) => {
                const fresh = !initialIds.has(m.id) && fetchedAt - Date.parse(m.timestamp) < 5000;
                return (
                  <Fragment key={m.id}>
                    <MessageRow message={m} open={expanded.has(m.id)} onToggle={() => toggle(m.id)} fresh={fresh} />
                    {expanded.has(m.id) ? (
                      <tr className="bg-slate-50/70">
                        <td colSpan={9} className="px-3 pb-4 pt-1">
                          <MessageDetail
                            webhookId={webhookId}
                            message={m}
                            receiverNames={receiverNames}
                            resendSupported={resendSupported}
                            onResendUnsupported={() => setResendSupported(false)}
                          />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager filters={filters} nextPageToken={data.nextPageToken} />
    </div>
  );
}

function LiveIndicator({ fetching, updatedAt, error }: { fetching: boolean; updatedAt: number; error: TimelineFetchError | null }) {
  if (error) {
    return (
      <div role="status" className="flex flex-wrap items-center gap-2 text-xs text-amber-800" data-testid="live-indicator" data-state="error">
        <span className="size-2 rounded-full bg-amber-500" aria-hidden />
        {error.status === 401 ? (
          <>
            Your session has expired. <a className="font-medium underline" href={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>Log in again</a>
          </>
        ) : (
          <>
            Live updates paused: {error.message}
            {error.requestId ? <span className="font-mono">(request {error.requestId})</span> : null} — retrying every second.
          </>
        )}
      </div>
    );
  }
  return (
    <div role="status" className="flex items-center gap-2 text-xs text-slate-500" data-testid="live-indicator" data-state="live">
      <span className="relative flex size-2" aria-hidden>
        <span className={`absolute inline-flex size-full rounded-full bg-emerald-400 ${fetching ? 'animate-ping' : ''} opacity-75`} />
        <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
      </span>
      Live — refreshed every second{updatedAt ? `, last at ${formatUtc(new Date(updatedAt))}` : ''}
    </div>
  );
}

function MessageRow({ message: m, open, onToggle, fresh }: { message: TTimelineMessage; open: boolean; onToggle: () => void; fresh: boolean }) {
  const lastReceipt = m.receipts[m.receipts.length - 1];
  return (
    <tr
      data-testid="message-row"
      data-message-id={m.id}
      data-status={m.status}
      data-event-type={m.eventType}
      onClick={onToggle}
      className={`cursor-pointer transition-colors hover:bg-slate-50 ${fresh ? 'bg-indigo-50/80' : ''} ${open ? 'bg-slate-50' : ''}`}
    >
      <td className="px-2 py-2 text-center">
        <button
          type="button"
          aria-expanded={open}
          aria-label={open ? `Collapse ${m.id}` : `Expand ${m.id}`}
          onClick={(e) => {
            e.stopPropagation();
            onToggle();
          }}
          className="rounded p-0.5 text-slate-500 hover:bg-slate-200"
        >
          <span className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>▸</span>
        </button>
      </td>
      <td className="px-3 py-2 font-medium text-slate-900">{m.eventType}</td>
      <td className="px-3 py-2">
        <code className="font-mono text-xs text-slate-600" title={m.id}>
          {m.id}
        </code>
      </td>
      <td className="px-3 py-2">
        <Timestamp value={m.timestamp} />
      </td>
      <td className="px-3 py-2">
        <MessageStatusBadge status={m.status} />
      </td>
      <td className="px-3 py-2 text-right font-mono text-xs tabular-nums" data-testid="attempt-count">
        {m.attemptCount}
      </td>
      <td className="px-3 py-2">
        <Timestamp value={m.nextAttempt} />
      </td>
      <td className="px-3 py-2">
        {lastReceipt ? (
          <span className="inline-flex items-center gap-1.5">
            <VerdictBadge verdict={lastReceipt.verdict} reason={lastReceipt.verdictReason} />
            {m.receipts.length > 1 ? <span className="text-xs text-slate-500">×{m.receipts.length}</span> : null}
          </span>
        ) : (
          <span className="text-xs text-slate-400">nothing</span>
        )}
      </td>
      <td className="px-3 py-2" data-testid="reconciliation">
        <ReconciliationBadge value={m.reconciliation} />
      </td>
    </tr>
  );
}

function MessageDetail({
  webhookId,
  message: m,
  receiverNames,
  resendSupported,
  onResendUnsupported,
}: {
  webhookId: string;
  message: TTimelineMessage;
  receiverNames: Record<string, string>;
  resendSupported: boolean;
  onResendUnsupported: () => void;
}) {
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const resend = () =>
    startTransition(async () => {
      setError(null);
      setNotice(null);
      const r = await resendMessageAction(webhookId, m.id);
      if (r.ok) {
        setNotice('Resent — the new attempt appears below.');
        await queryClient.invalidateQueries({ queryKey: timelineKey(webhookId) });
      } else if (r.unsupported) {
        onResendUnsupported();
      } else {
        setError(r.error);
      }
    });
  const attempts = m.attempts ? [...m.attempts].sort((a, b) => b.timestamp.localeCompare(a.timestamp)) : null;
  const receipts = [...m.receipts].reverse();
  return (
    <div className="space-y-3 pt-2" data-testid="message-detail" data-message-id={m.id}>
      <div className="flex flex-wrap items-center gap-2">
        <Link href={`/webhooks/${encodeURIComponent(webhookId)}/messages/${encodeURIComponent(m.id)}`} className="text-xs font-medium text-indigo-700 hover:underline">
          Payload, response bodies and raw requests →
        </Link>
        <span className="flex-1" />
        {notice ? <span className="text-xs text-emerald-700">{notice}</span> : null}
        {resendSupported ? (
          <Button size="sm" onClick={resend} disabled={pending}>
            {pending ? 'Resending…' : 'Resend'}
          </Button>
        ) : null}
      </div>
      {error ? <ErrorCallout error={error} title="Resend failed" /> : null}
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">What the API sent — attempts</h3>
          {attempts === null ? (
            <p className="text-xs text-amber-800">Attempts could not be loaded ({m.attemptsError ?? 'unknown error'}); the message says {m.attemptCount}.</p>
          ) : attempts.length === 0 ? (
            <p className="text-xs text-slate-500">No attempt yet{m.nextAttempt ? <> — the next is due at {formatUtc(m.nextAttempt)}</> : null}.</p>
          ) : (
            <table className="min-w-full rounded border border-slate-200 bg-white text-xs">
              <thead className="bg-slate-50 text-left text-slate-500">
                <tr>
                  <th className="px-2 py-1 font-medium">Time (UTC)</th>
                  <th className="px-2 py-1 font-medium">Status</th>
                  <th className="px-2 py-1 font-medium">Code</th>
                  <th className="px-2 py-1 text-right font-medium">Duration</th>
                  <th className="px-2 py-1 font-medium">Trigger</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {attempts.map((a) => (
                  <tr key={a.id} data-testid="attempt-row" data-status={a.status} data-code={a.responseStatusCode} title={a.id}>
                    <td className="px-2 py-1">
                      <Timestamp value={a.timestamp} withMs />
                    </td>
                    <td className="px-2 py-1">
                      <AttemptStatusBadge status={a.status} />
                    </td>
                    <td className="px-2 py-1">
                      <HttpCodeBadge code={a.responseStatusCode} />
                    </td>
                    <td className="px-2 py-1 text-right font-mono tabular-nums">{a.responseDurationMs} ms</td>
                    <td className="px-2 py-1">{a.triggerType}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">What arrived — receipts</h3>
          {receipts.length === 0 ? (
            <p className="text-xs text-slate-500">Nothing with this message id reached a receiver of this console.</p>
          ) : (
            <table className="min-w-full rounded border border-slate-200 bg-white text-xs">
              <thead className="bg-slate-50 text-left text-slate-500">
                <tr>
                  <th className="px-2 py-1 font-medium">Received (UTC)</th>
                  <th className="px-2 py-1 font-medium">Receiver</th>
                  <th className="px-2 py-1 font-medium">Signature</th>
                  <th className="px-2 py-1 font-medium">Answered</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {receipts.map((r) => (
                  <tr key={r.id} data-testid="receipt-row" data-verdict={r.verdict}>
                    <td className="px-2 py-1">
                      <Timestamp value={r.receivedAt} withMs />
                    </td>
                    <td className="px-2 py-1">
                      <Link href={`/receivers/${r.receiverId}`} className="text-indigo-700 hover:underline" onClick={(e) => e.stopPropagation()}>
                        {receiverNames[r.receiverId] ?? r.receiverId.slice(0, 8)}
                      </Link>
                    </td>
                    <td className="px-2 py-1">
                      <span className="inline-flex flex-wrap items-center gap-1">
                        <VerdictBadge verdict={r.verdict} reason={r.verdictReason} />
                        {r.duplicate ? <DuplicateBadge /> : null}
                        {r.verdictReason && r.verdict !== 'valid' ? <span className="text-slate-500">{r.verdictReason}</span> : null}
                      </span>
                    </td>
                    <td className="px-2 py-1">
                      <HttpCodeBadge code={r.responseStatus} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </div>
  );
}

function Pager({ filters, nextPageToken }: { filters: TTimelineFilters; nextPageToken: string | null }) {
  const base = new URLSearchParams(Object.entries({ status: filters.status, eventType: filters.eventType }).filter(([, v]) => v) as [string, string][]);
  const older = new URLSearchParams(base);
  if (nextPageToken) older.set('pageToken', nextPageToken);
  if (!filters.pageToken && !nextPageToken) return null;
  return (
    <div className="flex items-center justify-between text-sm">
      {filters.pageToken ? (
        <Link href={`?${base}`} className="font-medium text-indigo-700 hover:underline">
          ← Newest
        </Link>
      ) : (
        <span />
      )}
      {nextPageToken ? (
        <Link href={`?${older}`} className="font-medium text-indigo-700 hover:underline" data-testid="older-page">
          Older →
        </Link>
      ) : (
        <span className="text-xs text-slate-400">End of history</span>
      )}
    </div>
  );
}
