import Link from 'next/link';
import { Badge, HttpCodeBadge } from '@/components/console/badge';
import { EmptyState } from '@/components/console/empty-state';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { zonedTime } from '@/lib/console/alerts/alert-time';
import { stageOf } from '@/lib/console/alerts/incident-stage';
import type { TAlertJson } from '@/lib/console/alerts/list-alerts';
import { QuietActions } from './alert-quiet-actions';

/** Firing, and quieted by whom: acknowledged (with the note), or snoozed until a time. */
function State({ a, timeZone }: { a: TAlertJson; timeZone: string }) {
  if (a.clearedAt) return <Badge tone="gray">{a.kind === 'about_to_disable' ? 'cleared: recovered' : 'cleared'}</Badge>;
  const snoozed = !!a.snoozedUntil;
  const firing = a.kind === 'about_to_disable' && stageOf(a.details) === 'disabled' ? 'firing: disabled' : 'firing';
  return (
    <div className="flex min-w-40 flex-col items-start gap-1 max-md:min-w-0">
      <Badge tone={a.acknowledgedAt || snoozed ? 'amber' : 'red'} dot>
        {a.acknowledgedAt ? `${firing}, acknowledged` : snoozed ? `${firing}, snoozed` : firing}
      </Badge>
      {a.acknowledgedAt ? (
        <span className="text-xs text-slate-600" data-testid="alert-acknowledged">
          by {a.acknowledgedBy} at <Timestamp value={a.acknowledgedAt} />
          {a.acknowledgeNote ? <span className="block italic">“{a.acknowledgeNote}”</span> : null}
        </span>
      ) : null}
      {snoozed ? (
        <span className="text-xs text-slate-600" data-testid="alert-snoozed">
          Snoozed until {a.snoozedUntil ? zonedTime(a.snoozedUntil, timeZone) : ''}
        </span>
      ) : null}
      <QuietActions id={a.id} acknowledged={!!a.acknowledgedAt} />
    </div>
  );
}

function PostOutcome({ post }: { post: TAlertJson['firedPost'] }) {
  if (!post.at) return <span className="text-xs text-slate-500">—</span>;
  return (
    <span className="inline-flex items-center gap-1" title={post.error ?? undefined}>
      {post.status === 250 ? (
        <Badge tone="green">e-mail accepted</Badge>
      ) : post.status ? (
        <HttpCodeBadge code={post.status} />
      ) : (
        <Badge tone="red">no response</Badge>
      )}
      {post.error && !post.status ? <span className="max-w-48 truncate text-xs text-rose-700">{post.error}</span> : null}
    </span>
  );
}

/** One line of what the alert found, from its details. */
function summary(a: TAlertJson, timeZone: string): string {
  const d = a.details;
  switch (a.kind) {
    case 'failure_streak':
      return `${d.failureStreak} failed attempts in a row`;
    case 'success_rate':
      return `${Math.round(Number(d.successRate ?? 0) * 1000) / 10}% of ${d.attempts} attempts succeeded (${d.window})`;
    case 'receiver_failures':
      return `${d.failures} arrivals failed at ${d.receiver} (${d.window})${Number(d.unverifiedAccepted) > 0 ? `, ${d.unverifiedAccepted} of them answered 2xx with a bad signature` : ''}`;
    case 'webhook_disabled':
      return `disabled${d.reason ? `: ${d.reason}` : ''}`;
    case 'about_to_disable':
      if (stageOf(d) === 'disabled')
        return `disabled: ${d.missed == null ? 'grants made now are not sent to it' : `${d.missed} grants not sent to it so far`}${d.failedForGood ? `, ${d.failedForGood} failed for good` : ''}${d.lastError ? ` (last error ${d.lastError})` : ''}`;
      if (stageOf(d) === 'enabled') return a.clearedAt ? 'enabled again and a delivery succeeded' : 'enabled again; no delivery has succeeded yet';
      return `${d.warning ?? `failing since ${d.failingSince}`} (${d.percent}% of the time before disabling)${d.lastError ? `; last error ${d.lastError}` : ''}`;
    case 'webhook_paused':
      return `paused since ${typeof d.pausedAt === 'string' ? zonedTime(d.pausedAt, timeZone) : 'an unknown time'}${d.pausedBy ? ` by ${d.pausedBy}` : ''}${typeof d.waiting === 'number' ? `: ${d.waiting} waiting` : ''}`;
    case 'backup_failed':
      return d.reason ? `${d.reason}${Number(d.failures) > 1 ? ` (${d.failures} attempts in a row)` : ''}` : `the newest backup is older than ${d.hours} h`;
    case 'grant_undelivered':
      return `${d.trackingId ?? d.messageId} not delivered after ${d.minutes} min`;
    default:
      return '';
  }
}

export function AlertsTable({ alerts, timeZone }: { alerts: TAlertJson[]; timeZone: string }) {
  if (alerts.length === 0)
    return <EmptyState title="No alerts yet">An alert appears here when a rule’s condition starts, and stays listed once it clears.</EmptyState>;
  return (
    <Table label="Alerts" cards>
      <thead>
        <tr>
          <Th>State</Th>
          <Th>Rule</Th>
          <Th>Subject</Th>
          <Th>What</Th>
          <Th>Fired</Th>
          <Th>Cleared</Th>
          <Th>POST</Th>
        </tr>
      </thead>
      <TBody cards>
        {alerts.map((a) => (
          <tr
            key={a.id}
            id={`alert-${a.id}`}
            data-testid="alert-row"
            data-state={a.clearedAt ? 'cleared' : 'firing'}
            data-stage={a.kind === 'about_to_disable' ? stageOf(a.details) : undefined}
            className={`${CARD_ROW} target:bg-amber-50`}
          >
            <Td card>
              <State a={a} timeZone={timeZone} />
            </Td>
            <Td card="Rule" className="text-sm">
              {a.ruleName}
            </Td>
            <Td card="Subject">
              <Link href={a.about.href} className="break-words text-xs text-indigo-700 hover:underline" title={a.about.id} data-testid="alert-subject">
                {a.about.label}
              </Link>
            </Td>
            <Td card="What" className="max-w-sm text-xs text-slate-700 max-md:max-w-none">
              {summary(a, timeZone)}
            </Td>
            <Td card="Fired">
              <Timestamp value={a.firedAt} />
            </Td>
            <Td card="Cleared">{a.clearedAt ? <Timestamp value={a.clearedAt} /> : <span className="text-xs text-slate-500">—</span>}</Td>
            <Td card="POST">
              <div className="flex flex-col gap-0.5">
                <PostOutcome post={a.firedPost} />
                {a.repeats > 0 ? <span className="text-xs text-slate-500">{a.repeats === 1 ? '1 reminder' : `${a.repeats} reminders`}</span> : null}
                {a.clearedAt ? <PostOutcome post={a.clearedPost} /> : null}
              </div>
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
