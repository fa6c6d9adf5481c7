import { env } from '@/lib/env';
import { alertSubject } from './alert-subject';
import { describeRule, type TAlertRow, type TAlertRuleRow } from './rule-schemas';

// What an alert says, in each of the forms a rule's target takes: the signed Standard Webhooks
// body (docs/api-extensions.md, "Console alert POSTs"), Slack's incoming-webhook JSON (`text`, and
// `blocks` for the layout), and an e-mail (a subject and a plain-text body). One set of facts.

export type TAlertEvent = 'alert.fired' | 'alert.resolved';

/** `repeat`: 0 for the first notice of a firing alert, n for its n-th reminder. */
export type TAlertNotice = { type: TAlertEvent; rule: TAlertRuleRow; alert: TAlertRow; repeat: number };

const consoleUrl = (alert: TAlertRow) => `${env.PUBLIC_URL}/alerts#alert-${alert.id}`;

// C0 and C1 controls (CR, LF, tab, ESC, NEL…) and the Unicode line and paragraph separators.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A value from data (a webhook's description or URL, a rule's name, an alert's details) as it enters
 * an alert's text: each control character a space, so a description cannot add lines to an e-mail
 * that look like its headers, nor to a Slack message. The templates' own line breaks are theirs.
 */
export const oneLine = (value: string): string => value.replace(CONTROLS, ' ');

/** oneLine over every string of a JSON value (the signed body's details). */
function oneLineDeep(value: unknown): unknown {
  if (typeof value === 'string') return oneLine(value);
  if (Array.isArray(value)) return value.map(oneLineDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [oneLine(k), oneLineDeep(v)]));
  return value;
}

export function standardBody({ type, rule, alert, repeat }: TAlertNotice): string {
  return JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      alertId: alert.id,
      rule: { id: rule.id, name: oneLine(rule.name), kind: rule.kind, description: oneLine(describeRule(rule)), webhookId: rule.webhookId, environment: rule.environment },
      subject: oneLine(alert.subject),
      firedAt: alert.firedAt.toISOString(),
      clearedAt: alert.clearedAt?.toISOString() ?? null,
      repeat,
      details: oneLineDeep(alert.details),
      consoleUrl: consoleUrl(alert),
    },
  });
}

/** One line: "[firing] Acme down: webhook “Acme” (production)". */
export function headline({ type, rule, alert, repeat }: TAlertNotice): string {
  const about = alertSubject(alert.subject, alert.details as Record<string, unknown>).label;
  const state = type === 'alert.resolved' ? 'resolved' : repeat > 0 ? 'still firing' : 'firing';
  return `[${state}] ${oneLine(rule.name)}: ${oneLine(about)} (${oneLine(rule.environment)})`;
}

function facts(notice: TAlertNotice): [string, string][] {
  const { rule, alert, type } = notice;
  const rows: [string, string][] = [
    ['Condition', oneLine(describeRule(rule))],
    ['Fired', alert.firedAt.toISOString()],
  ];
  if (type === 'alert.resolved' && alert.clearedAt) rows.push(['Resolved', alert.clearedAt.toISOString()]);
  if (notice.repeat > 0) rows.push(['Reminder', `${notice.repeat} (sent every ${Math.round(env.ALERT_REPEAT / 60_000)} min until acknowledged)`]);
  for (const [k, v] of Object.entries(alert.details as Record<string, unknown>)) {
    if (v === null || v === undefined || v === '' || typeof v === 'object') continue;
    rows.push([oneLine(k), oneLine(String(v))]);
  }
  return rows;
}

/** Slack's incoming-webhook message: `text` (notifications, and clients without blocks) and `blocks`. */
export function slackBody(notice: TAlertNotice): string {
  const text = `${headline(notice)} — ${consoleUrl(notice.alert)}`;
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return JSON.stringify({
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escape(headline(notice))}*` } },
      { type: 'section', fields: facts(notice).slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${escape(k)}*\n${escape(v)}` })) },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: consoleUrl(notice.alert) }] },
    ],
  });
}

export function emailMessage(notice: TAlertNotice): { subject: string; text: string } {
  const lines = facts(notice).map(([k, v]) => `${k}: ${v}`);
  const ack = notice.type === 'alert.fired' ? '\nAcknowledge or snooze it in the console to stop the reminders.\n' : '';
  return { subject: headline(notice), text: `${headline(notice)}\n\n${lines.join('\n')}\n\n${consoleUrl(notice.alert)}\n${ack}` };
}
