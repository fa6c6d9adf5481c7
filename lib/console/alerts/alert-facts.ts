import { plural, withReadableTimes } from '@/lib/console/format';
import { alertSubject } from './alert-subject';
import { zonedTime } from './alert-time';
import { stageOf } from './incident-stage';
import { describeRule, type TAlertRow, type TAlertRuleRow } from './rule-schemas';

// What an alert says to people, in words: its state, one sentence of what is going on, and labelled
// facts — the webhook by its name (its description, else its URL, else its id), times in the
// console's zone with the zone named, rates as percentages, counts with their noun. Each value from
// data goes through `clean` (alert-message.ts's oneLine) before it is returned.

export type TAlertEvent = 'alert.fired' | 'alert.escalated' | 'alert.resolved';
/** `repeat`: 0 for the first notice of a firing alert, n for its n-th reminder. */
export type TAlertNotice = { type: TAlertEvent; rule: TAlertRuleRow; alert: TAlertRow; repeat: number };
export type TWords = { state: string; about: string; sentence: string; rows: [string, string][] };

type TOptions = { timeZone: string; repeatMinutes: number; clean: (s: string) => string };

/** Labels of the details' keys, in words; a key without one is left out (the signed body keeps them all). */
const LABELS: Record<string, string> = {
  failureStreak: 'Failed attempts in a row',
  attempts: 'Attempts',
  successes: 'Successes',
  successRate: 'Success rate',
  window: 'Over the last',
  receiver: 'Receiver',
  failures: 'Failures',
  unverifiedAccepted: 'Answered 2xx to a bad signature',
  lastFailureAt: 'Last failure',
  reason: 'Reason',
  disabledReason: 'Why disabled',
  failingSince: 'Failing since',
  disablesAt: 'Disabled at the latest',
  disabledAt: 'Disabled at',
  enabledAt: 'Enabled again at',
  waiting: 'Waiting to be delivered',
  pausedAt: 'Paused at',
  pausedBy: 'Paused by',
  pausedHours: 'Allowed pause (hours)',
  missed: 'Missed while disabled (not sent to it)',
  failedForGood: 'Failed for good',
  lastError: 'Last error',
  lastSuccessAt: 'Last successful delivery',
  trackingId: 'Grant (tracking id)',
  grantId: 'Grant id',
  messageId: 'Message id',
  eventType: 'Event',
  createdAt: 'Made at',
  status: 'Delivery status',
  minutes: 'Allowed (minutes)',
  hours: 'Allowed age (hours)',
  dir: 'Backup folder',
  lastAt: 'Newest backup',
  lastFile: 'Newest backup file',
  failedAt: 'Failed at',
  nextAt: 'Next backup',
};
const TIME_KEYS = /(At|Since)$/;

function value(key: string, v: unknown, o: TOptions): string {
  if (typeof v === 'string' && TIME_KEYS.test(key)) return zonedTime(v, o.timeZone);
  if (key === 'successRate' && typeof v === 'number') return `${Math.round(v * 1000) / 10}%`;
  if (key === 'status' && v === 'failed') return 'failed (no retries left)';
  // The service's reason quotes an RFC 3339 time ("failing with no success since 2026-11-29T03:26:28Z"): in the zone, as the times beside it.
  if (key === 'disabledReason' || key === 'reason') return withReadableTimes(o.clean(String(v)), (iso) => zonedTime(iso, o.timeZone));
  return o.clean(String(v));
}

const STAGE_STATE = { failing: 'about to be disabled', disabled: 'disabled', enabled: 'enabled again, no delivery yet' } as const;

function incidentSentence(name: string, d: Record<string, unknown>, n: (k: unknown) => string, o: TOptions): string {
  const when = (v: unknown) => (typeof v === 'string' ? zonedTime(v, o.timeZone) : 'an unknown time');
  switch (stageOf(d)) {
    case 'disabled':
      return `${name} is disabled since ${when(d.disabledAt)}: nothing is delivered to it, ${d.missed == null ? 'grants made now are not sent to it' : `${n(d.missed)} not sent to it so far`}${d.failedForGood ? `, ${d.failedForGood} failed for good` : ''}. Enable it once the receiver works, then "Recover all" on its page sends them.`;
    case 'enabled':
      return `${name} is enabled again, but no delivery has succeeded since this alert fired${typeof d.waiting === 'number' ? ` (${plural(d.waiting, 'message')} waiting)` : ''}. It stays firing until one does.`;
    default:
      return `${name} is ${o.clean(String(d.warning ?? `failing since ${when(d.failingSince)}`))}.`;
  }
}

export function alertWords({ type, rule, alert, repeat }: TAlertNotice, o: TOptions): TWords {
  const d = (alert.details ?? {}) as Record<string, unknown>;
  const subject = alertSubject(alert.subject, d);
  const about = o.clean(subject.label);
  const incident = rule.kind === 'about_to_disable';
  const stage = stageOf(d);
  const noun = (k: unknown) => plural(Number(k), 'grant');
  let state = repeat > 0 ? 'still firing' : 'firing';
  if (type === 'alert.resolved') state = incident ? 'recovered' : 'resolved';
  else if (incident && stage === 'disabled') state = repeat > 0 && type === 'alert.fired' ? 'still disabled' : 'disabled';
  const condition = o.clean(describeRule(rule, subject.kind === 'webhook' ? subject.label : undefined));
  let sentence = `${condition.charAt(0).toUpperCase()}${condition.slice(1)}.`;
  if (incident)
    sentence =
      type === 'alert.resolved' ? `${about} recovered: it is enabled and a delivery succeeded after this alert fired.` : incidentSentence(about, d, noun, o);
  else if (type === 'alert.resolved') sentence = `No longer: ${condition}.`;

  const rows: [string, string][] = [];
  if (subject.kind === 'webhook') {
    rows.push(['Webhook', about]);
    if (typeof d.url === 'string' && d.url !== subject.label) rows.push(['URL', o.clean(d.url)]);
  }
  if (incident) rows.push(['State', type === 'alert.resolved' ? 'recovered' : STAGE_STATE[stage]]);
  for (const [k, v] of Object.entries(d)) {
    if (!LABELS[k] || v === null || v === undefined || v === '' || typeof v === 'object') continue;
    // What waits (the webhook's backlog, pending and sending, for either rule) may be any event, a test one too: messages, not grants.
    if (k === 'waiting' && typeof v === 'number') rows.push([LABELS[k], plural(v, 'message')]);
    else if ((k === 'missed' || k === 'failedForGood') && typeof v === 'number') rows.push([LABELS[k], noun(v)]);
    else rows.push([LABELS[k], value(k, v, o)]);
  }
  if (incident && typeof d.percent === 'number' && stage === 'failing') rows.push(['Share of the time before disabling', `${d.percent}%`]);
  rows.push(['Condition', condition]);
  rows.push(['Fired', zonedTime(alert.firedAt, o.timeZone)]);
  if (type === 'alert.resolved' && alert.clearedAt) rows.push([incident ? 'Recovered' : 'Resolved', zonedTime(alert.clearedAt, o.timeZone)]);
  if (repeat > 0 && type === 'alert.fired') rows.push(['Reminder', `${repeat} (sent every ${o.repeatMinutes} min until acknowledged)`]);
  return { state, about, sentence, rows };
}
